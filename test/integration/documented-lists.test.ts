/**
 * Guarantees that rest on a documented list, tested entry by entry through the real binary. Each list is written
 * out here and compared with the one in the docs, never read from the code's own table: an entry dropped from the
 * code fails its own case, an entry dropped from the docs fails the comparison.
 * - docs/hook-mode.md: the built-in guard denies file-tool writes to `$AVP_HOME` (but its `validators/` and
 *   `config.json`) and to `.avp/state|cache|logs|trust`.
 * - docs/accepted-state.md: `avp accept` refuses under each agent environment marker and under each agent program
 *   among its ancestors; also under the environment Qwen Code and Claude Code really give their commands (captured).
 * - docs/hook-mode.md "Configuration": a kill switch the agent writes in any of the config file names avp reads
 *   (`avp.config.{json,…,cts}`, `.config/avp[.config].*`) is announced and not obeyed until the user accepts it.
 * (The lockfile's per-source integrity table of docs/registry-client.md: test/integration/lockfile-integrity.test.ts.)
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { BIN, PASSES, project, sh, type Project } from './hook-support.ts';

const DOCS = join(import.meta.dir, '../../docs');
const doc = (name: string) => readFileSync(join(DOCS, name), 'utf8').replace(/\s+/g, ' ');
/** The backticked words of a docs passage, from `start` to the next `end`. */
function backticked(text: string, start: string, end: string): string[] {
  const from = text.indexOf(start);
  expect({ start, found: from >= 0 }).toEqual({ start, found: true });
  const passage = text.slice(from + start.length, text.indexOf(end, from + start.length));
  return [...passage.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

const PROTECTED_PROJECT_DIRS = ['cache', 'logs', 'trust'];
const MARKERS = [
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'GEMINI_CLI',
  'QWEN_CODE',
  'QWEN_CODE_CLI',
  'QWEN_CODE_LAUNCHER_PID',
  'CODEX_SANDBOX',
  'CODEX_CI',
  'CODEX_THREAD_ID',
  'CODEX_SHELL',
  'CURSOR_AGENT',
  'OPENCODE',
  'AUGMENT_AGENT',
  'AVP_SUBAGENT',
  'AGENT',
  'AI_AGENT',
];
const PROGRAMS = [
  'claude',
  'codex',
  'gemini',
  'qwen',
  'droid',
  'copilot',
  'cursor-agent',
  'opencode',
  'amp',
  'kiro-cli',
  'cline',
  'windsurf',
];

/** A PreToolUse Write of `path` as Claude Code sends it. */
const preWrite = (p: Project, path: string) => ({
  session_id: 's1',
  transcript_path: join(p.home, 't.jsonl'),
  cwd: p.root,
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_input: { file_path: path, content: '{}' },
  tool_use_id: 't1',
});

/** An accepted project whose only validator passes every PreToolUse Write: a deny can only be the guard's. */
function guarded(): Project {
  const p = project();
  p.validator('open', { trigger: 'PreToolUse', match: { tools: ['Write'] } }, PASSES);
  return p;
}

describe('the built-in guard denies every documented place of avp state (docs/hook-mode.md)', () => {
  test('the docs list exactly the project folders tested here', () => {
    const listed = doc('hook-mode.md').match(/`\.avp\/((?:[a-z]+\|)+[a-z]+)`/);
    expect(listed?.[1]?.split('|')).toEqual(PROTECTED_PROJECT_DIRS);
    expect(doc('hook-mode.md')).toContain('`$AVP_HOME` (but its `validators/` and `config.json`');
  });

  for (const dir of PROTECTED_PROJECT_DIRS) {
    test(`a Write into .avp/${dir}/ of the project is denied as avp's own state`, async () => {
      const p = guarded();
      const r = await p.hook(preWrite(p, join(p.root, '.avp', dir, 'x', 'planted.json')));
      expect(r.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
      expect(r.json.hookSpecificOutput.permissionDecisionReason).toContain("avp's own state");
    });
  }

  test('a Write anywhere in $AVP_HOME but validators/ and config.json is denied; those two are not', async () => {
    const p = guarded();
    const home = join(p.home, '.avp');
    const decide = async (path: string) =>
      (await p.hook(preWrite(p, path))).json?.hookSpecificOutput?.permissionDecision as string | undefined;
    const denied = ['trust/projects/x/accepted.json', 'cache/verdicts/a.json', 'avp-lock.json', 'state/x', 'other'];
    for (const rel of denied)
      expect({ rel, decision: await decide(join(home, rel)) }).toEqual({ rel, decision: 'deny' });
    // The user's validators and config are a normal request: they become pending, not denied.
    for (const rel of ['validators/mine/VALIDATOR.md', 'config.json'])
      expect({ rel, decision: await decide(join(home, rel)) }).toEqual({ rel, decision: undefined });
  });
});

/** Runs `avp accept` with a pending change in `p`, under `env` only (plus what the binary needs). */
const accept = (p: Project, env: Record<string, string>) =>
  runAvp(['accept'], {
    bin: BIN,
    cwd: p.root,
    env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root, ...env },
  });

/** A project with a change the agent made (a kill switch), pending. */
function pending(): Project {
  const p = project();
  p.validator('open', { trigger: 'PreToolUse', match: { tools: ['Write'] } }, PASSES);
  p.write('avp.config.json', '{"disabled": true}');
  return p;
}

describe('avp accept refuses inside every documented agent (docs/accepted-state.md)', () => {
  const text = doc('accepted-state.md');

  test('the docs list exactly the markers and programs tested here', () => {
    expect(backticked(text, "carries an agent's marker (", '), or where')).toEqual(MARKERS);
    expect(backticked(text, "is an agent's program (", ')')).toEqual(PROGRAMS);
  });

  test('each environment marker alone makes avp accept refuse, and the change stays pending', async () => {
    const p = pending();
    for (const marker of MARKERS) {
      const r = await accept(p, { [marker]: '1' });
      expect({ marker, code: r.code, refused: r.stderr.includes('refuses to run inside a coding agent') }).toEqual({
        marker,
        code: 1,
        refused: true,
      });
    }
    const dry = await runAvp(['accept', '--dry-run'], {
      bin: BIN,
      cwd: p.root,
      env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root },
    });
    expect(dry.stdout).toContain('avp.config.json');
  });

  for (const [agent, fixture] of [
    ['Qwen Code', 'qwen-code/hook-env-and-cwd.json'],
    ['Claude Code', 'claude-code/hook-env-and-cwd.json'],
  ] as const) {
    test(`the environment ${agent} really gives its commands (captured) makes avp accept refuse`, async () => {
      const captured = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/hook', fixture), 'utf8')).env;
      // Only the agent's own variables: the captured project paths and model settings are not markers.
      const own = Object.fromEntries(
        Object.entries(captured as Record<string, string>).filter(([k]) => /^(QWEN|CLAUDE)_?CODE/.test(k)),
      );
      expect(Object.keys(own).length).toBeGreaterThan(2);
      const r = await accept(pending(), own);
      expect({ code: r.code, refused: r.stderr.includes('refuses to run inside a coding agent') }).toEqual({
        code: 1,
        refused: true,
      });
    });
  }

  test('each agent program among the ancestors makes avp accept refuse, with no marker in the environment', async () => {
    const p = pending();
    const bin = tempDir('avp-agent-bin-');
    for (const program of PROGRAMS) {
      symlinkSync('/bin/sh', join(bin, program));
      const proc = Bun.spawn([join(bin, program), '-c', `"${BIN}" accept`], {
        cwd: p.root,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: p.home, AVP_HOME: join(p.home, '.avp'), NO_COLOR: '1' },
        stdout: 'pipe',
        stderr: 'pipe',
      });
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      expect({ program, code, named: stderr.includes(`${program} (process`) }).toEqual({
        program,
        code: 1,
        named: true,
      });
    }
  });
});

const CONFIG_EXTENSIONS = ['json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ts', 'js', 'mjs', 'cjs', 'mts', 'cts'];
/** `disabled: true` in each config format. */
function killSwitch(ext: string): string {
  if (ext.startsWith('json')) return '{"disabled": true}\n';
  if (ext === 'yaml' || ext === 'yml') return 'disabled: true\n';
  if (ext === 'toml') return 'disabled = true\n';
  if (ext === 'cjs' || ext === 'cts') return 'module.exports = { disabled: true };\n';
  return 'export default { disabled: true };\n';
}
const FAILS = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":1}],"summary":"bad"}'`,
);
/** A PostToolUse Write of src/a.ts, which the `gate` validator always fails. */
const write = (p: Project) => ({
  session_id: 's1',
  transcript_path: join(p.home, 't.jsonl'),
  cwd: p.root,
  hook_event_name: 'PostToolUse',
  tool_name: 'Write',
  tool_input: { file_path: join(p.root, 'src/a.ts'), content: 'x\n' },
  tool_response: { type: 'create', filePath: join(p.root, 'src/a.ts'), content: 'x\n' },
  tool_use_id: 't1',
});

describe('a kill switch in any config file name avp reads waits for the user (docs/hook-mode.md)', () => {
  test('the docs list exactly the extensions tested here', () => {
    const listed = doc('hook-mode.md').match(/`avp\.config\.\{([a-z0-9,]+)\}`/);
    expect(listed?.[1]?.split(',')).toEqual(CONFIG_EXTENSIONS);
    expect(doc('hook-mode.md')).toContain('(or `.config/avp[.config].*`) in the project root');
  });

  for (const ext of CONFIG_EXTENSIONS) {
    test(`avp.config.${ext}: announced and not obeyed; once accepted, it switches avp off`, async () => {
      const p = project();
      p.validator('gate', { match: { tools: ['Write'] } }, FAILS);
      expect((await p.hook(write(p))).json.decision).toBe('block');
      p.write(`avp.config.${ext}`, killSwitch(ext));
      const r = await p.hook(write(p));
      expect({ ext, decision: r.json.decision }).toEqual({ ext, decision: 'block' });
      expect(r.json.systemMessage).toContain(`added avp.config.${ext}`);
      expect((await accept(p, {})).code).toBe(0);
      // The control: the same file, accepted, is read as the kill switch it is.
      expect({ ext, after: (await p.hook(write(p))).json?.decision }).toEqual({ ext, after: undefined });
    });
  }

  test('.config/avp.<ext> and .config/avp.config.<ext>, each extension: announced, the gate still blocks', async () => {
    const p = project();
    p.validator('gate', { match: { tools: ['Write'] } }, FAILS);
    expect((await p.hook(write(p))).json.decision).toBe('block'); // the user's acceptance, before the agent writes
    for (const ext of CONFIG_EXTENSIONS) {
      for (const rel of [`.config/avp.${ext}`, `.config/avp.config.${ext}`]) {
        p.write(rel, killSwitch(ext));
        const r = await p.hook(write(p));
        expect({ rel, decision: r.json.decision, named: String(r.json.systemMessage).includes(rel) }).toEqual({
          rel,
          decision: 'block',
          named: true,
        });
        rmSync(join(p.root, rel));
      }
    }
  }, 120_000);
});
