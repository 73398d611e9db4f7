import { describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

const FIXTURES = resolve(import.meta.dir, '../fixtures/session');

function sh(cwd: string, cmd: string): void {
  const p = Bun.spawnSync(['bash', '-c', cmd], { cwd });
  if (p.exitCode !== 0) throw new Error(`${cmd}: ${p.stderr}`);
}

/** A repository with one commit and the given fixture validators. */
function repo(validators: string[]): string {
  const root = tempDir('avp-check-');
  sh(root, 'git init -q && git config user.email t@example.com && git config user.name t');
  mkdirSync(join(root, '.avp', 'validators'), { recursive: true });
  for (const v of validators) cpSync(join(FIXTURES, v), join(root, '.avp', 'validators', v), { recursive: true });
  writeFileSync(join(root, 'app.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'util.ts'), 'export const u = 1;\n');
  sh(root, 'git add . && git commit -qm init');
  return root;
}

const check = (root: string, args: string[]) => runAvp(['check', ...args], { cwd: root });

describe('avp check (compiled binary)', () => {
  test('working tree vs HEAD: a changed file with a key fails (exit 1) with file:line; untracked files are checked too', async () => {
    const root = repo(['no-hardcoded-keys']);
    writeFileSync(join(root, 'app.ts'), 'export const a = 1;\nexport const KEY = "sk-live-abc123";\n');
    writeFileSync(join(root, 'fresh.ts'), 'const k = "sk-live-zzz999";\n');
    const r = await check(root, []);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('app.ts:2');
    expect(r.stdout).toContain('fresh.ts:1');
    expect(r.stdout).toContain('on Edit app.ts');
    expect(r.stdout).toContain('on Write fresh.ts');
    expect(r.stdout).toMatch(/^ERROR: /m);
    writeFileSync(join(root, 'app.ts'), 'export const a = 2;\n');
    sh(root, 'rm fresh.ts');
    const clean = await check(root, []);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('PASSED');
  });

  test('--staged checks the index, not the working tree (pre-commit)', async () => {
    const root = repo(['no-hardcoded-keys']);
    writeFileSync(join(root, 'util.ts'), 'export const u = "sk-live-staged1";\n');
    sh(root, 'git add util.ts');
    writeFileSync(join(root, 'util.ts'), 'export const u = 2;\n'); // fixed in the tree, but not staged
    expect((await check(root, ['--staged'])).code).toBe(1);
    sh(root, 'git add util.ts');
    expect((await check(root, ['--staged'])).code).toBe(0);
  });

  test("--diff REV and A..B ranges; --json gives seed 001's report with events and files", async () => {
    const root = repo(['no-hardcoded-keys']);
    sh(
      root,
      'git checkout -q -b feature && echo \'const x = "sk-live-branch42";\' > leak.ts && git add . && git commit -qm leak && git checkout -q master 2>/dev/null || git checkout -q main',
    );
    const range = await check(root, ['--diff', 'HEAD..feature', '--json']);
    expect(range.code).toBe(1);
    const report = JSON.parse(range.stdout);
    expect(report.outcome).toBe('ERROR');
    expect(report.totalViolations).toBe(1);
    expect(
      report.validators.some((v: any) => v.violations.some((x: any) => x.file === 'leak.ts' && x.line === 1)),
    ).toBe(true);
    expect(report.files).toEqual([{ path: 'leak.ts', kind: 'create' }]);
    expect(report.events.map((e: any) => e.event)).toContain('PostToolUse');
    expect(typeof report.summary).toBe('string');
    const sinceFirst = await check(root, ['--diff', 'HEAD']);
    expect(sinceFirst.code).toBe(0);
  });

  test('paths are checked as whole new files; Stop validators see every change in one event', async () => {
    const root = repo(['no-hardcoded-keys', 'always-fail-stop']);
    writeFileSync(join(root, 'loose.ts'), 'const k = "sk-live-path777";\n');
    const r = await check(root, ['loose.ts', '--event', 'PostToolUse']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('on Write loose.ts');
    expect(r.stdout).not.toContain('always-fail-stop');
    writeFileSync(join(root, 'app.ts'), 'export const a = 3;\n');
    const stop = await check(root, ['--event', 'Stop', '--json']);
    const report = JSON.parse(stop.stdout);
    expect(report.events).toHaveLength(1);
    expect(report.events[0].event).toBe('Stop');
    expect(report.events[0].files.sort()).toEqual(['app.ts', 'loose.ts']);
    const fail = report.validators.find((v: any) => v.name === 'always-fail-stop');
    expect(fail.violations[0].message).toContain('turn files: app.ts, loose.ts');
  });

  test('bad arguments are clear errors', async () => {
    const root = repo([]);
    const ev = await check(root, ['--event', 'Notification']);
    expect(ev.code).toBe(1);
    expect(ev.stderr).toContain('fix: use one of: PostToolUse, Stop');
    const rev = await check(root, ['--diff', 'no-such-rev']);
    expect(rev.code).toBe(1);
    expect(rev.stderr).toContain('no-such-rev');
    expect(rev.stderr).not.toContain('    at ');
    const missing = await check(root, ['nope.ts']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.ts: no such file');
    const both = await check(root, ['app.ts', '--staged']);
    expect(both.code).toBe(1);
  });
});
