import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changedFiles, reviewValidator, runReviews } from '../../../src/phase/reviews.ts';

const made: string[] = [];
process.on('exit', () => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'avp-phase-reviews-'));
  made.push(d);
  return d;
}
function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
}

describe('changedFiles', () => {
  test('git repository: diff against HEAD, before/after, created and deleted files', async () => {
    const d = dir();
    writeFileSync(join(d, 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(d, 'gone.ts'), 'x\n');
    git(d, 'init', '-q');
    git(d, 'add', '-A');
    git(d, 'commit', '-qm', 'init');
    writeFileSync(join(d, 'a.ts'), 'export const a = 2;\n');
    writeFileSync(join(d, 'new.ts'), 'export const n = 1;\n');
    unlinkSync(join(d, 'gone.ts'));
    const [a, created, gone, outside] = await changedFiles(d, ['a.ts', 'new.ts', 'gone.ts', '../elsewhere.ts']);
    expect(a).toMatchObject({
      relPath: 'a.ts',
      kind: 'update',
      before: 'export const a = 1;\n',
      after: 'export const a = 2;\n',
      inProject: true,
    });
    expect(a!.diff).toContain('-export const a = 1;\n+export const a = 2;');
    expect(a!.diff).toStartWith('--- a/a.ts\n+++ b/a.ts\n@@');
    expect(created).toMatchObject({ kind: 'create', before: null, after: 'export const n = 1;\n' });
    expect(gone).toMatchObject({ kind: 'delete', before: 'x\n', after: null });
    expect(outside).toMatchObject({ inProject: false, kind: 'delete' });
  });

  test('no git repository: content only, every file new', async () => {
    const d = dir();
    writeFileSync(join(d, 'a.py'), 'print(1)\n');
    const [a] = await changedFiles(d, ['a.py', 'a.py']);
    expect(a).toMatchObject({ relPath: 'a.py', kind: 'create', before: null, after: 'print(1)\n' });
    expect(a!.diff).toBeUndefined();
  });
});

describe('runReviews', () => {
  test('synthetic validators are distinct and routable by id', () => {
    const code = reviewValidator('code', '/p');
    const sec = reviewValidator('security', '/p');
    expect([code.id, sec.id]).toEqual(['phase-code-review', 'phase-security-review']);
    expect(code.spec.trigger).toBe('Stop');
    expect(code.hash).not.toBe(sec.hash);
  });

  test('a judge slower than the review budget fails both reviews with the timeout, promptly', async () => {
    const d = dir();
    writeFileSync(join(d, 'a.js'), 'x\n');
    const notes: string[] = [];
    const started = performance.now();
    const r = await runReviews({
      wd: d,
      files: ['a.js'],
      env: {
        PATH: process.env.PATH,
        HOME: d,
        AVP_HOME: join(d, '.avp-home'),
        AVP_JUDGE: 'command',
        AVP_JUDGE_COMMAND: 'sleep 30',
        AVP_NO_CACHE: '1',
      },
      timeoutMs: 1000,
      note: (n) => notes.push(n),
    });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(r.code.status).toBe('fail');
    expect(r.code.findings[0]).toStartWith('code review could not run: ');
    expect(r.code.findings[0]).toContain('timed out after 1 s');
    expect(r.security.vulnerabilities[0]).toStartWith('security review could not run: ');
    expect(notes).toHaveLength(2);
  });

  test('no changed files: both pass without a judge', async () => {
    const r = await runReviews({ wd: dir(), files: [], env: {}, timeoutMs: 1000, note: () => {} });
    expect(r.code).toEqual({ status: 'pass', findings: [], severity: 'none', execution_time_ms: 0 });
    expect(r.security).toEqual({ status: 'pass', vulnerabilities: [], severity: 'none', execution_time_ms: 0 });
  });
});

describe('verdict mapping', () => {
  test('a failed verdict without violations: the summary is the finding, severity medium', async () => {
    const d = dir();
    writeFileSync(join(d, 'a.js'), 'x\n');
    const judge = join(d, 'judge.sh');
    writeFileSync(
      judge,
      `#!/bin/sh\ncat > /dev/null\necho '{"passed": false, "violations": [], "summary": "the change is incomplete"}'\n`,
      { mode: 0o755 },
    );
    const r = await runReviews({
      wd: d,
      files: ['a.js'],
      env: {
        PATH: process.env.PATH,
        HOME: d,
        AVP_HOME: join(d, '.avp-home'),
        AVP_JUDGE: 'command',
        AVP_JUDGE_COMMAND: judge,
        AVP_NO_CACHE: '1',
      },
      timeoutMs: 20_000,
      note: () => {},
    });
    expect(r.code).toMatchObject({ status: 'fail', findings: ['the change is incomplete'], severity: 'medium' });
    expect(r.security).toMatchObject({
      status: 'fail',
      vulnerabilities: ['the change is incomplete'],
      severity: 'medium',
    });
  });
});
