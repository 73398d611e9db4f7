/**
 * no-secrets' verdict (validators/no-secrets/scripts/check.ts): the summary's counts, which files are skipped or
 * judged with fewer rules, which tools count as a shell before they run, and where the project root comes from.
 */
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '../../validators/no-secrets/scripts/check.ts';
import { tempDir } from '../support/run-avp.ts';
import { randomText } from './no-secrets-samples.ts';

const r = randomText(777);
const GH = `ghp_${r(36)}`;
const PASSWORD = `const password = "${r(14)}";`;
const write = (...files: Array<[string, string]>) =>
  validate({
    event: 'PostToolUse',
    tool: 'Write',
    projectRoot: '/nonexistent/p',
    files: files.map(([relPath, after]) => ({ relPath, kind: 'create' as const, before: null, after })),
  });
const NO_REPO = tempDir('avp-check-');
const bash = (command: string, tool = 'Bash', event = 'PreToolUse') =>
  validate({ event, tool, toolInput: { command }, cwd: NO_REPO, projectRoot: NO_REPO, files: [] });

describe('the summary', () => {
  test('counts lines when nothing is found (one line, many lines)', () => {
    expect(write(['a.ts', 'x']).summary).toBe('no secrets in 1 added line');
    expect(write(['a.ts', 'x\ny'], ['b.ts', 'z']).summary).toBe('no secrets in 3 added lines');
    expect(write(['a.ts', 'x']).passed).toBe(true);
  });
  test('counts secrets and files when something is found', () => {
    expect(write(['a.ts', `t = "${GH}"`]).summary).toBe('1 hard-coded secret in 1 file');
    expect(write(['a.ts', `t = "${GH}"\nu = "${GH}"`], ['b.ts', `v = "${GH}"`]).summary).toBe(
      '3 hard-coded secrets in 2 files',
    );
  });
  test('before a shell command runs, the summary says it is about what the command writes or commits', () => {
    const v = bash(`echo 'T="${GH}"' > src/t.py && git commit -m x`);
    expect(v.passed).toBe(false);
    expect(v.summary).toBe('1 hard-coded secret in 1 file (in what the command writes or commits)');
    expect(bash(`echo 'T="${GH}"' > src/t.py`).summary).toBe('1 hard-coded secret in 1 file');
  });
});

describe('which files and which rules', () => {
  test('lockfiles, generated files and the project allowlist skip a file; tests keep only provider formats', () => {
    expect(write(['package-lock.json', `"t": "${GH}"`], ['dist/app.min.js', `t="${GH}"`]).passed).toBe(true);
    expect(write(['tests/app.test.ts', PASSWORD]).passed).toBe(true);
    expect(write(['tests/app.test.ts', `t = "${GH}"`]).passed).toBe(false);
    expect(write(['docs/setup.md', PASSWORD]).passed).toBe(true);
    expect(write(['src/app.ts', PASSWORD]).passed).toBe(false);
  });
  test('private key blocks are test data in test paths, and still found in docs', () => {
    const key =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n';
    expect(write(['tests/fixtures/id_ed25519', key]).passed).toBe(true);
    expect(write(['docs/deploy.md', key]).passed).toBe(false);
  });
  test("the project's .gitleaks.toml is read from the project root, or the working directory without one", () => {
    const root = tempDir('avp-check-root-');
    writeFileSync(join(root, '.gitleaks.toml'), `[allowlist]\npaths = ['''^vendor/''']\n`);
    const event = (where: { projectRoot?: string; cwd?: string }) => ({
      event: 'PostToolUse',
      tool: 'Write',
      ...where,
      files: [{ relPath: 'vendor/a.ts', kind: 'create' as const, before: null, after: `t = "${GH}"` }],
    });
    expect(validate(event({ projectRoot: root })).passed).toBe(true);
    expect(validate(event({ cwd: root })).passed).toBe(true);
    expect(validate(event({ projectRoot: '/nonexistent/p', cwd: root })).passed).toBe(false);
  });
});

describe('shell tools before they run', () => {
  test('the before-copy judges a shell command itself even where the adapter also judges file edits', () => {
    process.env.AVP_VALIDATOR_NAME = 'no-secrets-before';
    try {
      const v = validate({
        event: 'PreToolUse',
        alsoTrigger: 'PostToolUse',
        tool: 'Bash',
        toolInput: { command: `echo 'T="${GH}"' > src/t.py` },
        projectRoot: NO_REPO,
        files: [],
      } as Parameters<typeof validate>[0]);
      expect(v.violations.map((x) => x.file)).toEqual(['src/t.py']);
    } finally {
      delete process.env.AVP_VALIDATOR_NAME;
    }
  });
  test('a clean commit counts the staged lines it judged', () => {
    const root = tempDir('avp-check-clean-');
    const git = (...args: string[]) => Bun.spawnSync(['git', ...args], { cwd: root, stdout: 'pipe', stderr: 'pipe' });
    git('init', '-q');
    writeFileSync(join(root, 'a.ts'), 'export const a = 1;\nexport const b = 2;\n');
    git('add', 'a.ts');
    const v = validate({
      event: 'PreToolUse',
      tool: 'Bash',
      toolInput: { command: 'git commit -m x' },
      cwd: root,
      projectRoot: root,
      files: [],
    });
    expect(v.summary).toBe('no secrets in 2 added lines');
  });
  test("every agent's shell tool name is judged by what the command writes", () => {
    for (const tool of ['Bash', 'run_shell_command', 'shell', 'exec_command', 'local_shell', 'execute_command'])
      expect({ tool, passed: bash(`echo 'T="${GH}"' > src/t.py`, tool).passed }).toEqual({ tool, passed: false });
  });
  test('a shell event without a command string is judged by its files', () => {
    const v = validate({ event: 'PreToolUse', tool: 'Bash', toolInput: {}, projectRoot: NO_REPO, files: [] });
    expect(v.passed).toBe(true);
  });
  test('after it ran, or for another tool, the command text is not what is judged', () => {
    expect(bash(`echo 'T="${GH}"' > src/t.py`, 'Bash', 'PostToolUse').passed).toBe(true);
    expect(bash(`echo 'T="${GH}"' > src/t.py`, 'BashOutput').passed).toBe(true);
  });
  test('with a git commit in the command, a finding in what it writes keeps the usual message', () => {
    const root = tempDir('avp-check-commit-');
    const v = validate({
      event: 'PreToolUse',
      tool: 'Bash',
      toolInput: { command: `echo 'T="${GH}"' > src/t.py && git commit -m x` },
      cwd: root,
      projectRoot: root,
      files: [],
    });
    expect(v.violations.map((x) => x.message?.startsWith('git commit would commit it'))).toEqual([false]);
  });
});

describe('run as a process', () => {
  const script = join(import.meta.dir, '../../validators/no-secrets/scripts/check.ts');
  const run = (stdin: string) => {
    const p = Bun.spawnSync([process.execPath, script], { stdin: Buffer.from(stdin), timeout: 20_000 });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  test('an event it cannot read exits 1 saying so; one it cannot judge exits 1 with the reason', () => {
    const bad = run('{not json');
    expect({ code: bad.code, out: bad.out }).toEqual({ code: 1, out: '' });
    expect(bad.err).toStartWith('no-secrets: cannot read the event on stdin: ');
    const root = tempDir('avp-check-badtoml-');
    writeFileSync(join(root, '.gitleaks.toml'), '[[rules]\n');
    const failed = run(JSON.stringify({ event: 'PostToolUse', tool: 'Write', projectRoot: root, files: [] }));
    expect({ code: failed.code, out: failed.out }).toEqual({ code: 1, out: '' });
    expect(failed.err).toStartWith('no-secrets: .gitleaks.toml:1: not valid TOML');
  });
});
