/**
 * The command line through the real binary: unknown commands and flags are refused before anything runs (exit 2,
 * did-you-mean, a pointer to the help), `avp help` / `avp version`, no colour codes outside a terminal.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

const ESC = '\u001b[';
const pkg = JSON.parse(readFileSync(join(import.meta.dir, '../../package.json'), 'utf8'));

/** A git-less project folder with its own HOME, so nothing a command writes escapes the test. */
function project(): { cwd: string; env: Record<string, string> } {
  const cwd = tempDir('avp-cli-');
  const home = tempDir('avp-cli-home-');
  return { cwd, env: { HOME: home, AVP_HOME: join(home, '.avp') } };
}

describe('unknown flags are refused before the command runs', () => {
  test('avp init --locl writes no settings file (it used to write the shared one)', async () => {
    const p = project();
    const r = await runAvp(['init', '--locl'], p);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown flag --locl for avp init (did you mean --local?)');
    expect(r.stderr).toContain('avp init --help');
    expect(r.stdout).toBe('');
    expect(existsSync(join(p.cwd, '.claude'))).toBe(false);
    expect(existsSync(join(p.cwd, '.avp'))).toBe(false);
  });

  test('avp check --stagged checks nothing and says which flag was meant', async () => {
    const r = await runAvp(['check', '--stagged'], project());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean --staged?');
    expect(r.stdout).toBe('');
  });

  test('every spelling around a flag is checked: --flag=value, --no-flag, a missing value, an extra argument', async () => {
    const p = project();
    const cases: Array<[string[], string]> = [
      [['list', '--json=yes'], '--json is a switch'],
      [['check', '--no-diff'], '--diff takes a value'],
      [['check', '--diff'], '--diff needs a value'],
      [['check', '--diff', '--staged'], '--diff needs a value (got the flag --staged)'],
      [['doctor', '--no-prob'], 'did you mean --no-probe?'],
      [['remove', 'a', 'b'], 'unexpected argument "b": avp remove takes 1 argument'],
      [['whoami', 'me'], 'avp whoami takes no arguments'],
      [['new'], 'avp new needs <NAME>'],
      [['registry', 'export', 'out'], 'needs --base-url'],
      [['list', '-x'], 'unknown flag -x'],
      [['--verbose'], 'unknown flag --verbose for avp'],
    ];
    for (const [args, text] of cases) {
      const r = await runAvp(args, p);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toContain(text);
      expect(r.stderr).toContain('--help');
    }
  });

  test('known flags in every form still work: --flag=value, camelCase, --no-flag, -- before arguments', async () => {
    const p = project();
    expect((await runAvp(['list', '--json'], p)).code).toBe(0);
    expect((await runAvp(['list', '--json=true'], p)).code).toBe(0);
    expect((await runAvp(['init', '--dryRun', '--no-validators'], p)).code).toBe(0);
    expect((await runAvp(['doctor', '--no-probe', '--timeout=5'], p)).code).not.toBe(2);
    const lint = await runAvp(['lint', '--', '-not-a-flag.md'], p);
    expect(lint.code).toBe(1);
    expect(lint.stderr + lint.stdout).toContain('-not-a-flag.md');
  });

  test('unknown commands and subcommands: exit 2 with the closest name, no colour codes in a pipe', async () => {
    const env = { ...project().env, NO_COLOR: '' };
    const r = await runAvp(['chek'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "chek" for avp (did you mean check?)');
    expect(r.stderr + r.stdout).not.toContain(ESC);
    const sub = await runAvp(['registry', 'tokn', 'list'], { env });
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('did you mean token?');
    expect(sub.stderr).toContain('avp registry --help');
  });

  test('avp hook refuses a misspelt flag with the same did-you-mean, and prints nothing on stdout', async () => {
    const r = await runAvp(['hook', '--no-cach'], { stdin: '{}' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('did you mean --no-cache?');
    expect(r.stderr).toContain('avp hook --help');
  });
});

describe('help and version', () => {
  test('avp help <command> is avp <command> --help; avp help lists every command', async () => {
    const viaHelp = await runAvp(['help', 'check']);
    const viaFlag = await runAvp(['check', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toContain('--staged');
    const nested = await runAvp(['help', 'registry', 'token', 'create']);
    expect(nested.stdout).toContain('avp registry token create');
    const all = await runAvp(['help']);
    expect(all.code).toBe(0);
    for (const name of ['check', 'init', 'search', 'help', 'version']) expect(all.stdout).toContain(name);
    const bare = await runAvp([]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toBe(all.stdout);
  });

  test('avp help <unknown> is a usage error with a suggestion', async () => {
    const r = await runAvp(['help', 'serach']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean search?');
  });

  test('avp version, avp --version and avp -v print the package version', async () => {
    for (const args of [['version'], ['--version'], ['-v']]) {
      const r = await runAvp(args);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(pkg.version);
    }
    const json = JSON.parse((await runAvp(['version', '--json'])).stdout);
    expect(json.version).toBe(pkg.version);
  });

  test('help text names what a thing is, never an internal document', async () => {
    for (const name of ['check', 'hook', 'list', 'phase', 'search']) {
      const r = await runAvp([name, '--help']);
      expect(r.stdout).not.toMatch(/\bseed\b|\bissue \d/i);
    }
  });
});

describe('colour only for a terminal', () => {
  test('a pipe gets no colour codes (help, errors, log lines), even without NO_COLOR', async () => {
    const p = project();
    const env = { ...p.env, NO_COLOR: '' };
    for (const args of [['--help'], ['check', '--help'], ['list'], ['frob']]) {
      const r = await runAvp(args, { cwd: p.cwd, env });
      expect({ args, out: r.stdout + r.stderr }).not.toEqual({ args, out: expect.stringContaining(ESC) });
    }
  });

  test('FORCE_COLOR colours a pipe; NO_COLOR wins when FORCE_COLOR is not set', async () => {
    const forced = await runAvp(['--help'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(ESC);
    const off = await runAvp(['--help'], { env: { NO_COLOR: '1' } });
    expect(off.stdout).not.toContain(ESC);
  });
});
