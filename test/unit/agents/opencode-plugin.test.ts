/**
 * OpenCode's plugin as avp writes it, loaded and driven as OpenCode drives it, with a stand-in for `avp hook` that
 * records every event it is asked about: the Stop loop's bookkeeping (which message is avp's own follow-up).
 */
import { expect, test } from 'bun:test';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { opencodePlugin } from '../../../src/agents/plugin-source.ts';
import { tempDir } from '../../support/run-avp.ts';

/** A plugin whose `avp hook` blocks every idle and passes everything else, and the events it was asked about. */
async function loaded(prompt: () => Promise<unknown>) {
  const dir = tempDir('avp-oc-plugin-');
  const seen = join(dir, 'seen.jsonl');
  const fake = join(dir, 'fake-avp.sh');
  writeFileSync(
    fake,
    [
      '#!/bin/sh',
      'input=$(cat)',
      `printf '%s\\n' "$input" >> '${seen}'`,
      'case "$input" in *session.idle*) echo \'{"decision":"block","reason":"fix it"}\' ;; *) echo \'{"decision":"pass"}\' ;; esac',
    ].join('\n'),
  );
  chmodSync(fake, 0o755);
  const file = join(dir, 'avp.ts');
  writeFileSync(file, opencodePlugin(fake, 30));
  const prompts: string[] = [];
  const client = { session: { prompt: (a: any) => (prompts.push(a.body.parts[0].text), prompt()) } };
  const hooks = await (await import(file)).AvpPlugin({ client, directory: dir });
  const events = () =>
    existsSync(seen)
      ? readFileSync(seen, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  return { hooks, prompts, events };
}

const idle = { event: { type: 'session.idle', properties: { sessionID: 's1' } } };
const message = (text: string) => [{ sessionID: 's1' }, { parts: [{ type: 'text', text }] }];

test("a sent follow-up is avp's own message; the next idle is inside the Stop loop", async () => {
  const p = await loaded(() => Promise.resolve({}));
  await p.hooks.event(idle);
  expect(p.prompts).toEqual(['fix it']);
  await p.hooks['chat.message'](...message('fix it'));
  await p.hooks.event(idle);
  const asked = p.events().map((e) => [e.hook_event_name, e.stop_hook_active]);
  expect(asked).toEqual([
    ['session.idle', false],
    ['session.idle', true],
  ]);
});

test("a follow-up that could not be sent is forgotten: the user's next message is theirs and starts a new turn", async () => {
  const p = await loaded(() => Promise.reject(new Error('session busy')));
  await p.hooks.event(idle);
  await Bun.sleep(10); // the rejected prompt settles
  await p.hooks['chat.message'](...message('please add tests'));
  await p.hooks.event(idle);
  const asked = p.events().map((e) => [e.hook_event_name, e.prompt ?? e.stop_hook_active]);
  expect(asked).toEqual([
    ['session.idle', false],
    ['chat.message', 'please add tests'],
    ['session.idle', false],
  ]);
});
