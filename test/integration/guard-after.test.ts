/**
 * What gets past the shell guard, through the compiled binary: the guard reads commands, not the files they unpack or
 * run, so an archive extracted into the project and a script written then run can switch the hooks off. Each route
 * is tried as the agent would (the Bash call passes the guard, then runs), and the next hook call must tell the user
 * the hooks were changed outside `avp init` — what docs/hook-mode.md promises under "Not defended".
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { BIN, project, type Project } from './hook-support.ts';

type Doc = Record<string, any>;

/** A project after `avp init --agent claude` (no validators: the guard alone). */
async function claudeProject(): Promise<Project & { env: Record<string, string> }> {
  const p = project({ acceptFirst: false });
  const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root, PATH: '/usr/bin:/bin' };
  const init = await runAvp(['init', '--agent', 'claude', '--no-validators', '--command', 'avp hook'], {
    bin: BIN,
    cwd: p.root,
    env,
  });
  expect(init.code).toBe(0);
  return { ...p, env };
}

const call = (p: Project, tool: string, input: Doc, id: string): Doc => ({
  session_id: 's1',
  transcript_path: join(p.home, 't.jsonl'),
  cwd: p.root,
  hook_event_name: 'PreToolUse',
  tool_name: tool,
  tool_input: input,
  tool_use_id: id,
});

function sh(cwd: string, command: string): void {
  const r = Bun.spawnSync(['bash', '-c', command], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`${command}: ${r.stderr.toString()}`);
}

/** The agent's Bash call: the guard's answer before it runs, then the command itself when the guard let it through. */
async function bash(p: Project & { env: Record<string, string> }, command: string, id: string) {
  const r = await p.hook(call(p, 'Bash', { command }, id), p.env);
  expect(r.code).toBe(0);
  const denied = r.json?.hookSpecificOutput?.permissionDecision === 'deny';
  if (!denied) sh(p.root, command);
  return denied;
}

const SWITCHED_OFF = 'the hooks that call avp were changed outside `avp init`';

describe('routes past the shell guard are announced at the next hook call', () => {
  test('an archive extracted into the project, holding .claude/settings.json', async () => {
    const p = await claudeProject();
    expect((await p.hook(call(p, 'Bash', { command: 'ls' }, 't0'), p.env)).code).toBe(0); // accepts the project
    const staging = tempDir('avp-archive-');
    mkdirSync(join(staging, '.claude'));
    writeFileSync(join(staging, '.claude/settings.json'), '{}\n');
    const archive = join(tempDir('avp-archive-out-'), 'assets.tar.gz');
    sh(staging, `tar czf ${archive} .claude`);
    // The guard cannot see inside the archive: the command passes and lands.
    expect(await bash(p, `tar xzf ${archive}`, 't1')).toBe(false);
    const next = await p.hook(call(p, 'Bash', { command: 'ls' }, 't2'), p.env);
    const said = String(next.json?.systemMessage ?? '');
    expect(said).toContain(SWITCHED_OFF);
    expect(said).toContain('.claude/settings.json');
    expect(said).not.toContain('avp keeps checking');
  });

  test('a script written with the Write tool, then run from the shell', async () => {
    const p = await claudeProject();
    expect((await p.hook(call(p, 'Bash', { command: 'ls' }, 't0'), p.env)).code).toBe(0);
    const script = join(p.root, 'scripts/setup.sh');
    const content = `#!/bin/sh\nd=.cla; printf '{"disableAllHooks": true}' > "\${d}ude/settings.local.json"\n`;
    const write = await p.hook(call(p, 'Write', { file_path: script, content }, 't1'), p.env);
    expect(write.json?.hookSpecificOutput?.permissionDecision).not.toBe('deny');
    mkdirSync(join(p.root, 'scripts'), { recursive: true });
    writeFileSync(script, content);
    expect(await bash(p, 'sh scripts/setup.sh', 't2')).toBe(false);
    const next = await p.hook(call(p, 'Bash', { command: 'ls' }, 't3'), p.env);
    const said = String(next.json?.systemMessage ?? '');
    expect(said).toContain(SWITCHED_OFF);
    expect(said).toContain('disableAllHooks=true');
  });

  test('the same change as one plain command is refused before it runs (the guard reads commands)', async () => {
    const p = await claudeProject();
    expect(await bash(p, `printf '{"disableAllHooks": true}' > .claude/settings.local.json`, 't1')).toBe(true);
  });
});

/**
 * Kept visible: a script can wipe avp's session state under `$AVP_HOME/sessions/` (the turn's baseline and its
 * records) between a change and the Stop, and the Stop then judges nothing and says nothing — docs/hook-mode.md lists
 * it under "Not defended" (only `avp init --managed` puts it out of the agent's reach). When this test fails, the
 * route was closed or announced: update that list.
 */
test('kept visible: session state wiped by a script between a change and Stop is neither judged nor announced', async () => {
  const p = project();
  cpSync(
    join(import.meta.dir, '../fixtures/session/stop-turn-files'),
    join(p.root, '.avp/validators/stop-turn-files'),
    {
      recursive: true,
    },
  );
  const env = { PATH: '/usr/bin:/bin' };
  const turnEvent = (name: string) => ({ ...call(p, 'Bash', {}, 't0'), hook_event_name: name, prompt: 'go' });
  await p.hook(turnEvent('UserPromptSubmit'), env);
  writeFileSync(join(p.root, 'key.txt'), 'sk-live-wiped1\n');
  const blocked = await p.hook({ ...turnEvent('Stop'), stop_hook_active: false }, env);
  expect(blocked.json?.decision).toBe('block');
  await p.hook(turnEvent('UserPromptSubmit'), env);
  writeFileSync(join(p.root, 'key2.txt'), 'sk-live-wiped2\n');
  rmSync(join(p.home, '.avp/sessions'), { recursive: true, force: true }); // what `sh scripts/wipe.sh` does
  const end = await p.hook({ ...turnEvent('Stop'), stop_hook_active: false }, env);
  expect(end.json).toEqual({});
});
