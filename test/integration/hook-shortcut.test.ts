/**
 * The hook shortcut (src/hook/shortcut/): a Claude Code call the full path answered before — same event, tool and
 * working folder, same environment — is answered again from its record while nothing the answer stood on changed.
 * Here: what it answers and how (the same answer, the call counted), and what it must never answer. The attacks on
 * its record are in hook-shortcut-attacks.test.ts, its reading of stdin in hook-shortcut-input.test.ts. Files are
 * left to age past the racy window first.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateBlocked, gatedProject, writeEvent } from './hook-memo-support.ts';
import { project, sh, type Project } from './hook-support.ts';
import { readLogs } from '../../src/stats/read.ts';
import {
  countedCalls,
  memos,
  pendingCalls,
  readEvent,
  records,
  traced,
  tracedArgs,
  untilAnswered,
} from './hook-shortcut-support.ts';

const FAILS = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"env","file":".env","line":1,"snippet":"x","suggestion":"y"}],"summary":"bad"}'`,
);

let gated: Project;
let watched: Project;
let bare: Project;
let sessions: Project;
let noticed: Project;
let guardsReads: Project;

beforeAll(async () => {
  gated = await gatedProject();
  // A validator that concerns some Reads only: which, the file decides.
  watched = await gatedProject((p) =>
    p.validator('env-reads', { match: { tools: ['Read'], files: ['*.env'] } }, FAILS),
  );
  bare = project();
  await bare.accept();
  sessions = await gatedProject();
  noticed = await gatedProject();
  // A validator that refuses some Reads before they happen (secrets): which, the file decides.
  guardsReads = await gatedProject((p) =>
    p.validator('env-reads', { trigger: 'PreToolUse', match: { tools: ['Read'], files: ['*.env'] } }, FAILS),
  );
  // The first call of a session writes state (its told acceptances, the twin claims' folder) that the hook memo then
  // waits 2 s on (the racy rule): past it, every call after is what a session's calls are.
  for (const p of [gated, watched, bare, sessions, noticed, guardsReads]) await p.hook(readEvent(p));
  await Bun.sleep(2100);
}, 60_000);

describe('the hook shortcut answers a call the full path answered, as the full path did', () => {
  test('a repeated Read no validator concerns: the same answer, and counted each time like the full path counts', async () => {
    const first = await traced(gated, readEvent(gated));
    expect(first.answered).toBe(false);
    expect(first.stdout).toBe('{}\n');
    for (let i = 0; i < 4 && !(await traced(gated, readEvent(gated))).answered; i++) {
      // The call that writes the hook memo records its answer at once (not a full-path call later): never one alone.
      if (memos(gated).length) expect(records(gated)).toHaveLength(1);
    }
    const before = countedCalls(gated).length;
    for (let i = 0; i < 3; i++) {
      const r = await traced(gated, readEvent(gated));
      expect([r.answered, r.code, r.stdout]).toEqual([true, 0, '{}\n']);
    }
    const counted = countedCalls(gated);
    expect(counted.length).toBe(before + 3);
    expect(counted.at(-1)).toMatchObject({ event: 'PostToolUse', call: 'toolu_read' });
    expect(records(gated)).toHaveLength(1);
  });

  test('the calls it counts wait as files of their own until the turn’s end folds them into the day’s counter', async () => {
    await untilAnswered(gated, readEvent(gated));
    const waiting = pendingCalls(gated);
    expect(waiting.length).toBeGreaterThan(0);
    const before = countedCalls(gated);
    // `avp stats` reads them where they wait.
    const read = readLogs(join(gated.root, '.avp', 'logs')).calls.map((c) => c.ts);
    expect(read).toEqual(expect.arrayContaining(before.map((c) => Date.parse(c.ts))));
    // A call of the full path mid-turn counts itself and leaves them (the agent waits on it: bench/stats.ts).
    const w = await traced(gated, writeEvent(gated));
    expect(w.answered).toBe(false);
    gateBlocked(w);
    expect(pendingCalls(gated)).toEqual(waiting);
    const stop = { ...readEvent(gated), hook_event_name: 'Stop', stop_hook_active: false };
    for (const key of ['tool_name', 'tool_input', 'tool_response', 'tool_use_id'])
      delete (stop as Record<string, unknown>)[key];
    const s = await traced(gated, stop);
    expect([s.answered, s.code]).toEqual([false, 0]);
    expect(pendingCalls(gated)).toEqual([]);
    const after = countedCalls(gated);
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after).toHaveLength(before.length + 2);
    expect(after.filter((c) => c.call === 't1').length).toBeGreaterThan(0);
  });

  test('the answer is the recorded one, byte for byte (no newline added to one without, a % printed as it is)', async () => {
    await untilAnswered(bare, readEvent(bare));
    const saved = records(bare).map((file) => [file, readFileSync(file, 'utf8')] as const);
    try {
      for (const stdout of ['{"a":1}', '{"m":"100%% %s %d"}\n']) {
        for (const [file, text] of saved) writeFileSync(file, JSON.stringify({ ...JSON.parse(text), stdout }));
        const r = await traced(bare, readEvent(bare));
        expect([r.answered, r.stdout]).toEqual([true, stdout]);
      }
    } finally {
      for (const [file, text] of saved) writeFileSync(file, text);
    }
  });

  test('a new record removes the records of environments unused for a week, and nothing else', async () => {
    const dir = join(gated.home, '.avp', 'cache', 'hook');
    const stale = join(dir, 'shortcut-0000000000000000.json');
    const recent = join(dir, 'shortcut-1111111111111111.json');
    writeFileSync(stale, '{}');
    writeFileSync(recent, '{}');
    const old = Date.now() / 1000 - 8 * 86_400;
    utimesSync(stale, old, old);
    // Another environment: its first call of the full path starts a record of its own.
    await traced(gated, readEvent(gated), { ANOTHER_SESSION_VARIABLE: '1' });
    expect([existsSync(stale), existsSync(recent)]).toEqual([false, true]);
    expect(records(gated).length).toBeGreaterThanOrEqual(2);
  });

  test('another working folder, tool or environment is not the recorded call', async () => {
    await untilAnswered(gated, readEvent(gated));
    const sub = await traced(gated, readEvent(gated, 'src/a.ts', { cwd: join(gated.root, 'src') }));
    expect(sub.why).toBe('call not recorded');
    const grep = await traced(gated, readEvent(gated, 'src/a.ts', { tool_name: 'Grep' }));
    expect(grep.why).toBe('call not recorded');
    const env = await traced(gated, readEvent(gated), { SOME_OTHER_VARIABLE: '1' });
    expect(env.why).toBe('no record for this environment');
    expect((await traced(gated, readEvent(gated), { AVP_SHORTCUT: '0' })).why).toBe('AVP_SHORTCUT=0');
  });
});

describe('what the shortcut leaves to the full path before it reads stdin', () => {
  test("Claude Code's hook command lines are answered; a broken hook entry is refused as the full path refuses it", async () => {
    await untilAnswered(gated, readEvent(gated));
    for (const args of [['--agent', 'claude'], ['--agent=claude']]) {
      const r = await tracedArgs(gated, args, readEvent(gated));
      expect([r.answered, r.stdout]).toEqual([true, '{}\n']);
    }
    // The call was recorded, but only the full path reads the flags: a misspelt one is a usage error.
    const typo = await tracedArgs(gated, ['--agnet', 'claude'], readEvent(gated));
    expect([typo.why, typo.code, typo.stdout]).toEqual(['not Claude Code, or flags', 2, '']);
    expect(typo.stderr).toContain('unknown flag --agnet');
    const split = await tracedArgs(gated, ['--agent=', 'claude'], readEvent(gated));
    expect([split.why, split.code, split.stdout]).toEqual(['not Claude Code, or flags', 2, '']);
  });

  test('the switches that need the full path (set empty, a switch is off), and a call without a project folder', async () => {
    for (const name of ['AVP_SUBAGENT', 'AVP_DISABLE', 'AVP_PROFILE', 'AVP_DEBUG', 'AVP_NO_CACHE']) {
      expect((await traced(gated, readEvent(gated), { [name]: '1' })).why).toBe(name);
    }
    await untilAnswered(gated, readEvent(gated), { AVP_DEBUG: '' });
    expect((await traced(gated, readEvent(gated), { CLAUDE_PROJECT_DIR: '' })).why).toBe('no CLAUDE_PROJECT_DIR');
    // avp's home spelled with a trailing slash: the shortcut does not resolve paths, the full path does.
    const slash = await traced(gated, readEvent(gated), { AVP_HOME: `${join(gated.home, '.avp')}/` });
    expect([slash.why, slash.stdout]).toEqual(['avp home not plainly spelled', '{}\n']);
    // A folder or a link loop where a managed policy could be is no policy, to the full path and the shortcut alike.
    mkdirSync(join(gated.home, 'policy-folder'));
    symlinkSync('policy-loop', join(gated.home, 'policy-loop'));
    for (const at of ['policy-folder', 'policy-loop'])
      await untilAnswered(gated, readEvent(gated), { AVP_MANAGED_CONFIG: join(gated.home, at) });
  });

  test('without the trace, nothing on stderr, whether the shortcut answered or not', async () => {
    await untilAnswered(gated, readEvent(gated));
    const answered = await gated.hook(readEvent(gated));
    expect([answered.code, answered.stdout, answered.stderr]).toEqual([0, '{}\n', '']);
    const declined = await gated.hook(readEvent(gated, 'src/a.ts', { tool_name: 'Glob' }));
    expect([declined.code, declined.stdout, declined.stderr]).toEqual([0, '{}\n', '']);
  });
});

describe('what the shortcut never answers', () => {
  test("a session's first call: the full path notes what the session was told of acceptances", async () => {
    await untilAnswered(sessions, readEvent(sessions));
    const other = readEvent(sessions, 'src/a.ts', { session_id: 's2' });
    expect((await traced(sessions, other)).why).toBe('session not told yet');
    // From then on the new session is told of each acceptance: an accepted validator is news at its next call.
    sessions.validator('later', { match: { tools: ['Write'] } });
    await sessions.accept();
    const r = await traced(sessions, other);
    expect(r.answered).toBe(false);
    expect(r.json.systemMessage).toContain('later');
  });

  test('an answer that tells of an acceptance: told once, never recorded to be told again', async () => {
    await untilAnswered(noticed, readEvent(noticed));
    // A config change (no validator to parse): the next call writes the memo again, and only the news it tells
    // keeps that call from being recorded.
    noticed.write('avp.config.json', '{"maxStopBlocks": 3}');
    await noticed.accept();
    await Bun.sleep(2100);
    const told = await traced(noticed, readEvent(noticed));
    expect(told.json.systemMessage).toContain('avp.config.json');
    for (let i = 0; i < 3; i++) expect((await traced(noticed, readEvent(noticed))).stdout).toBe('{}\n');
    expect((await untilAnswered(noticed, readEvent(noticed))).stdout).toBe('{}\n');
  });

  test('before-tool calls: those the guard reads (file-changing and shell tools, permission requests) never', async () => {
    await untilAnswered(bare, readEvent(bare));
    const pre = (tool: string, tool_input: Record<string, unknown>) => {
      const { tool_response: _r, ...rest } = readEvent(bare);
      return { ...rest, hook_event_name: 'PreToolUse', tool_name: tool, tool_input };
    };
    const settings = join(bare.root, '.claude', 'settings.json');
    const guarded = [
      pre('Write', { file_path: settings, content: '{"disableAllHooks": true}' }),
      pre('Edit', { file_path: settings, old_string: '{', new_string: '{"disableAllHooks": true,' }),
      pre('MultiEdit', { file_path: settings, edits: [] }),
      pre('NotebookEdit', { notebook_path: join(bare.root, 'n.ipynb'), new_source: 'x' }),
      pre('Bash', { command: `echo '{"disableAllHooks": true}' > ${settings}` }),
      { ...pre('Read', { file_path: settings }), hook_event_name: 'PermissionRequest' },
    ];
    for (const event of guarded)
      for (let i = 0; i < 3; i++) expect((await traced(bare, event)).why).toBe('the guard reads this event');
    // With nothing installed the after-events are answered, and the guard still refuses a write to avp's hooks.
    const r = await traced(bare, guarded[0]);
    expect(r.answered).toBe(false);
    expect(r.json.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  test('a before-tool Read (the guard never refuses one) is answered once recorded, the guard as before', async () => {
    const { tool_response: _r, ...rest } = readEvent(gated);
    const preRead = { ...rest, hook_event_name: 'PreToolUse' };
    const r = await untilAnswered(gated, preRead);
    expect([r.code, r.stdout]).toEqual([0, '{}\n']);
    expect(countedCalls(gated).at(-1)).toMatchObject({ event: 'PreToolUse', call: 'toolu_read' });
    // The recorded Read leaves a before-tool Write to the guard: refused, not answered from a record.
    const settings = join(gated.root, '.claude', 'settings.json');
    const write = {
      ...preRead,
      tool_name: 'Write',
      tool_input: { file_path: settings, content: '{"disableAllHooks": true}' },
    };
    const refused = await traced(gated, write);
    expect(refused.why).toBe('the guard reads this event');
    expect(refused.json.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  test("a before-tool call of a tool avp does not know (an MCP server's) is answered once recorded", async () => {
    const { tool_response: _r, ...rest } = readEvent(gated);
    const mcp = { ...rest, hook_event_name: 'PreToolUse', tool_name: 'mcp__files__list', tool_input: { dir: '.' } };
    const r = await untilAnswered(gated, mcp);
    expect([r.code, r.stdout, r.stderr.includes('avp shortcut: answered')]).toEqual([0, '{}\n', true]);
  });

  test('a before-tool Read a validator could concern is never recorded: each one is judged', async () => {
    const { tool_response: _r, ...rest } = readEvent(guardsReads);
    const preRead = { ...rest, hook_event_name: 'PreToolUse' };
    for (let i = 0; i < 4; i++) {
      const r = await traced(guardsReads, preRead);
      expect(r.answered).toBe(false);
      expect(r.stdout).toBe('{}\n');
    }
    const secret = { ...preRead, tool_input: { file_path: join(guardsReads.root, 'prod.env') } };
    for (let i = 0; i < 2; i++) {
      const r = await traced(guardsReads, secret);
      expect(r.answered).toBe(false);
      expect(r.json.hookSpecificOutput.permissionDecision).toBe('deny');
    }
  });

  test('with nothing installed, a Write after the fact is answered too (nothing could run on it)', async () => {
    const r = await untilAnswered(bare, writeEvent(bare));
    expect(r.stdout).toBe('{}\n');
  });

  test('with nothing installed, an event that names no tool is answered too', async () => {
    const { tool_name: _t, tool_input: _i, tool_response: _r, tool_use_id: _u, ...rest } = readEvent(bare);
    const prompt = { ...rest, hook_event_name: 'UserPromptSubmit', prompt: 'go on' };
    const r = await untilAnswered(bare, prompt);
    expect(r.stdout).toBe('{}\n');
  });

  test('with validators installed: a file tool (session tracking records it) and a shell call, never', async () => {
    for (let i = 0; i < 3; i++) {
      const w = await traced(gated, writeEvent(gated));
      expect(w.answered).toBe(false);
      gateBlocked(w);
      const bash = {
        ...readEvent(gated),
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_response: { stdout: '', stderr: '' },
      };
      expect((await traced(gated, bash)).answered).toBe(false);
    }
  });

  test('a Read of a file a validator may watch: never recorded, and the watched file is judged', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await traced(watched, readEvent(watched));
      expect([r.answered, r.stdout]).toEqual([false, '{}\n']);
    }
    const env = await traced(watched, readEvent(watched, '.env'));
    expect(env.json.decision).toBe('block');
    expect(env.json.reason).toContain('[env-reads]');
  });
});
