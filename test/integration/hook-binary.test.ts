/**
 * The compiled binary answers captured Claude Code events, on every OS (the Windows CI job must pass it, through
 * `dist/avp.exe`): the catalog's `no-secrets`, installed offline with `avp add`, blocks the captured Write of a
 * hardcoded key; the captured Stop with nothing to judge answers `{}`. The fixture's paths are moved into a scratch
 * project as values (a Windows path's backslashes would break a text replacement of the JSON).
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

const FIXTURES = resolve(import.meta.dir, '../fixtures/hook/claude-code');

/** Every string of `value` with the captured project and home moved to `root` and `home` (native separators). */
function moved(value: unknown, root: string, home: string): unknown {
  if (typeof value === 'string') {
    const swap = (from: string, to: string, s: string) =>
      s.startsWith(from)
        ? to +
          s
            .slice(from.length)
            .split('/')
            .join(process.platform === 'win32' ? '\\' : '/')
        : s;
    return swap('/home/dev', home, swap('/home/dev/project', root, value));
  }
  if (Array.isArray(value)) return value.map((v) => moved(v, root, home));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, moved(v, root, home)]));
  }
  return value;
}

function setup() {
  const root = tempDir('avp-hook-binary-');
  const home = tempDir('avp-hook-binary-home-');
  mkdirSync(join(root, '.git'));
  const env = { HOME: home, USERPROFILE: home, AVP_HOME: join(home, '.avp'), CLAUDE_PROJECT_DIR: root };
  const fixture = (name: string) =>
    moved(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')), root, home) as Record<string, any>;
  const hook = (input: unknown) =>
    runAvp(['hook', '--agent', 'claude'], { cwd: root, env, stdin: `${JSON.stringify(input)}\n`, timeoutMs: 60_000 });
  return { root, env, fixture, hook };
}

describe('the compiled avp answers captured Claude Code events', () => {
  test('no-secrets (from the embedded catalog) blocks the captured Write of a hardcoded key', async () => {
    const p = setup();
    const add = await runAvp(['add', 'no-secrets', '--project', '--offline'], { cwd: p.root, env: p.env });
    expect(add.stderr).not.toContain('avp:');
    expect(add.code).toBe(0);
    const input = p.fixture('hook-input-PostToolUse-Write.json');
    mkdirSync(join(p.root, 'src'), { recursive: true });
    writeFileSync(input.tool_input.file_path, input.tool_input.content);
    const r = await p.hook(input);
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('no-secrets');
    expect(answer.reason).toContain('src/config.ts');
  });

  test('the captured Stop with nothing to judge is exactly {}', async () => {
    const p = setup();
    const r = await p.hook(p.fixture('hook-input-Stop.json'));
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('{}');
  });
});
