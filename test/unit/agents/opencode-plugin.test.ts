/**
 * OpenCode's plugin as avp writes it, loaded and driven as OpenCode drives it, with a stand-in for `avp hook` that
 * records every event it is asked about: the Stop loop's bookkeeping (which message is avp's own follow-up), and
 * sub-agents (the `task` tool's child sessions), whose end is a SubagentStop and never the main session's Stop.
 */
import { expect, test } from 'bun:test';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { opencodePlugin } from '../../../src/agents/plugin-source.ts';
import { tempDir } from '../../support/run-avp.ts';

/**
 * A plugin whose `avp hook` blocks every idle and sub-agent end and passes everything else, and the events it was
 * asked about. `sessions` is what `client.session.get` knows (OpenCode's sessions, by id).
 */
async function loaded(prompt: () => Promise<unknown>, sessions: Record<string, object> = {}) {
  const dir = tempDir('avp-oc-plugin-');
  const seen = join(dir, 'seen.jsonl');
  const fake = join(dir, 'fake-avp.sh');
  writeFileSync(
    fake,
    [
      '#!/bin/sh',
      'input=$(cat)',
      `printf '%s\\n' "$input" >> '${seen}'`,
      'case "$input" in *session.idle*|*subagent.stop*) echo \'{"decision":"block","reason":"fix it"}\' ;; *) echo \'{"decision":"pass"}\' ;; esac',
    ].join('\n'),
  );
  chmodSync(fake, 0o755);
  const file = join(dir, 'avp.ts');
  writeFileSync(file, opencodePlugin(fake, 30));
  const prompts: string[] = [];
  const prompted: string[] = [];
  const looked: string[] = [];
  const client = {
    session: {
      prompt: (a: any) => (prompts.push(a.body.parts[0].text), prompted.push(a.path.id), prompt()),
      get: async (a: any) => {
        looked.push(a.path.id);
        return sessions[a.path.id] ? { data: sessions[a.path.id] } : { error: { name: 'NotFound' } };
      },
    },
  };
  const hooks = await (await import(file)).AvpPlugin({ client, directory: dir });
  const events = () =>
    existsSync(seen)
      ? readFileSync(seen, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  return { hooks, prompts, prompted, looked, events };
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

/** The main session `main` and the `task` tool's child session `child` (OpenCode's `session.created` events). */
const MAIN = { id: 'main', parentID: undefined };
const CHILD = { id: 'child', parentID: 'main', agent: 'general' };
const created = (info: object) => ({ event: { type: 'session.created', properties: { info } } });
const idleOf = (sessionID: string) => ({ event: { type: 'session.idle', properties: { sessionID } } });
const taskAfter = (metadata: object) => [
  {
    tool: 'task',
    sessionID: 'main',
    callID: 'call_task',
    args: { description: 'look', prompt: 'look', subagent_type: 'general' },
  },
  { title: 'look', output: 'task_id: child\n<task_result>looked</task_result>', metadata },
];

test("a sub-agent's idle is no Stop: no follow-up into the child; the main session's idle still is one", async () => {
  const p = await loaded(() => Promise.resolve({}));
  await p.hooks.event(created(MAIN));
  await p.hooks.event(created(CHILD));
  await p.hooks.event(idleOf('child'));
  expect(p.events()).toEqual([]);
  expect(p.prompted).toEqual([]);
  await p.hooks.event(idleOf('main'));
  expect(p.events().map((e) => [e.hook_event_name, e.session_id])).toEqual([['session.idle', 'main']]);
  expect(p.prompted).toEqual(['main']);
});

test("a sub-agent's prompt is no user prompt, and its tool calls are the main session's, with the sub-agent named", async () => {
  const p = await loaded(() => Promise.resolve({}));
  await p.hooks.event(created(CHILD));
  await p.hooks['chat.message']({ sessionID: 'child' }, { parts: [{ type: 'text', text: 'look around' }] });
  await p.hooks['tool.execute.before'](
    { tool: 'write', sessionID: 'child', callID: 'c1' },
    { args: { filePath: 'a.ts', content: 'x' } },
  );
  expect(p.events().map((e) => [e.hook_event_name, e.session_id, e.agent_id, e.agent_type])).toEqual([
    ['tool.execute.before', 'main', 'child', 'general'],
  ]);
});

test("the task's result carries the SubagentStop: judged as the sub-agent's end, a refusal joins the result", async () => {
  const p = await loaded(() => Promise.resolve({}));
  const [input, output] = taskAfter({ parentSessionId: 'main', sessionId: 'child' }) as [any, any];
  await p.hooks['tool.execute.after'](input, output);
  const stop = p.events().find((e) => e.hook_event_name === 'subagent.stop');
  expect(stop).toMatchObject({
    session_id: 'main',
    agent_id: 'child',
    agent_type: 'general',
    stop_hook_active: false,
    last_assistant_message: 'task_id: child\n<task_result>looked</task_result>',
  });
  expect(output.output).toEndWith('\n\nfix it');
  // The main agent runs the sub-agent again (task_id: child): the second refusal is inside the loop.
  const [again, out2] = taskAfter({ parentSessionId: 'main', sessionId: 'child' }) as [any, any];
  await p.hooks['tool.execute.after'](again, out2);
  expect(
    p
      .events()
      .filter((e) => e.hook_event_name === 'subagent.stop')
      .map((e) => e.stop_hook_active),
  ).toEqual([false, true]);
  expect(p.prompted).toEqual([]);
});

test('a session no event introduced is looked up once (client.session.get → parentID)', async () => {
  const p = await loaded(() => Promise.resolve({}), { child: CHILD, main: MAIN });
  await p.hooks.event(idleOf('child'));
  await p.hooks.event(idleOf('child'));
  expect(p.events()).toEqual([]);
  expect(p.looked).toEqual(['child']);
  // One OpenCode does not know: a main session.
  await p.hooks.event(idleOf('other'));
  expect(p.events().map((e) => [e.hook_event_name, e.session_id])).toEqual([['session.idle', 'other']]);
});

test("a background task's sub-agent is judged at its idle, report only: no follow-up anywhere", async () => {
  const p = await loaded(() => Promise.resolve({}));
  await p.hooks.event(created(CHILD));
  const [input, output] = taskAfter({ parentSessionId: 'main', sessionId: 'child', background: true }) as [any, any];
  await p.hooks['tool.execute.after'](input, output);
  expect(p.events().map((e) => e.hook_event_name)).toEqual(['tool.execute.after']);
  await p.hooks.event(idleOf('child'));
  expect(p.events().map((e) => [e.hook_event_name, e.session_id, e.agent_id])).toEqual([
    ['tool.execute.after', 'main', undefined],
    ['session.idle.subagent', 'main', 'child'],
  ]);
  expect(p.prompted).toEqual([]);
});
