/**
 * pre-commit: `avp init --git-hook` writes a plain git hook that runs `avp check --staged` — where git runs hooks
 * (core.hooksPath), into husky's file when husky owns the hooks, never over a hook avp did not write — and the
 * repository's `.pre-commit-hooks.yaml` works in the pre-commit framework (when it is installed).
 */
import { describe, expect, test } from 'bun:test';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';
import { gitRepo, lineFinder, scriptValidator, sh } from './ci-support.ts';

const home = tempDir('avp-ci-hook-home-');
const ENV = { HOME: home, AVP_HOME: join(home, '.avp'), PATH: `${dirname(AVP_BIN)}:${process.env.PATH}` };

/** `git commit` as a user would run it (hooks included), with avp on PATH. */
function commit(cwd: string, msg: string): { code: number; out: string } {
  const p = Bun.spawnSync(['git', 'commit', '-qm', msg], { cwd, env: { ...process.env, ...ENV }, stderr: 'pipe' });
  return { code: p.exitCode, out: `${p.stdout}${p.stderr}` };
}

function keyRepo(): string {
  const root = gitRepo({ 'a.ts': 'x\n' });
  scriptValidator(root, 'no-keys', {}, lineFinder('sk-live-'));
  sh(root, 'git add -A && git commit -qm validators');
  return root;
}

const init = (cwd: string, args: string[] = []) => runAvp(['init', '--git-hook', ...args], { cwd, env: ENV });

describe('avp init --git-hook', () => {
  test('writes .git/hooks/pre-commit: a commit with a key is stopped, a clean one goes through; a rerun is a no-op', async () => {
    const root = keyRepo();
    const dry = await init(root, ['--dry-run']);
    expect(dry.stdout).toContain('would be created');
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
    const r = await init(root);
    expect(r.code).toBe(0);
    const hook = join(root, '.git/hooks/pre-commit');
    expect(statSync(hook).mode & 0o111).toBeTruthy();
    expect(readFileSync(hook, 'utf8')).toContain('check --staged');
    // Claude settings are not this flag's business.
    expect(existsSync(join(root, '.claude'))).toBe(false);

    writeFileSync(join(root, 'a.ts'), 'const k = "sk-live-commit1";\n');
    sh(root, 'git add a.ts');
    const stopped = commit(root, 'leak');
    expect(stopped.code).not.toBe(0);
    expect(stopped.out).toContain('a.ts:1');
    expect(sh(root, 'git log --oneline').split('\n').filter(Boolean)).toHaveLength(2);
    writeFileSync(join(root, 'a.ts'), 'const k = process.env.K;\n');
    sh(root, 'git add a.ts');
    expect(commit(root, 'clean').code).toBe(0);

    const again = await init(root, ['--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'unchanged', manager: 'git', path: hook });
  });

  test('follows core.hooksPath; from a subfolder project the hook checks that project', async () => {
    const root = gitRepo({});
    const pkg = join(root, 'packages/app');
    mkdirSync(pkg, { recursive: true });
    scriptValidator(pkg, 'no-keys', {}, lineFinder('sk-live-'));
    sh(root, 'git add -A && git commit -qm base && git config core.hooksPath .githooks');
    const r = await init(pkg);
    expect(r.code).toBe(0);
    expect(existsSync(join(root, '.githooks/pre-commit'))).toBe(true);
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
    writeFileSync(join(pkg, 'b.ts'), 'const k = "sk-live-mono2";\n');
    sh(root, 'git add -A');
    const stopped = commit(root, 'leak');
    expect(stopped.code).not.toBe(0);
    expect(stopped.out).toContain('b.ts:1');
  });

  test('husky: the block goes into .husky/pre-commit next to what is there; husky’s wrappers are untouched', async () => {
    const root = keyRepo();
    mkdirSync(join(root, '.husky/_'), { recursive: true });
    writeFileSync(join(root, '.husky/_/h'), '#!/bin/sh\n# husky wrapper\n');
    writeFileSync(join(root, '.husky/pre-commit'), 'echo ran-lint-staged > lint.log\n');
    // What husky 9's wrapper does: run the user's file for the hook name.
    writeFileSync(join(root, '.husky/_/pre-commit'), '#!/bin/sh\nsh "$(dirname "$0")/../pre-commit"\n');
    chmodSync(join(root, '.husky/_/pre-commit'), 0o755);
    sh(root, 'git config core.hooksPath .husky/_');
    const r = await init(root, ['--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ manager: 'husky', action: 'updated', command: 'avp check --staged' });
    const text = readFileSync(join(root, '.husky/pre-commit'), 'utf8');
    expect(text.startsWith('echo ran-lint-staged > lint.log\n')).toBe(true);
    expect(readFileSync(join(root, '.husky/_/pre-commit'), 'utf8')).toContain('../pre-commit');
    expect(JSON.parse((await init(root, ['--json'])).stdout).action).toBe('unchanged');
    expect(readFileSync(join(root, '.husky/pre-commit'), 'utf8')).toBe(text);

    writeFileSync(join(root, 'a.ts'), 'const k = "sk-live-husky3";\n');
    sh(root, 'git add a.ts');
    const stopped = commit(root, 'leak');
    expect(stopped.code).not.toBe(0);
    expect(readFileSync(join(root, 'lint.log'), 'utf8')).toContain('ran-lint-staged');
  });

  test('a hook avp did not write is never replaced; the error says how to add avp to it', async () => {
    for (const [body, hint] of [
      ['#!/bin/sh\n# lefthook generated\nlefthook run pre-commit "$@"\n', 'lefthook.yml'],
      ['#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n', '.pre-commit-config.yaml'],
      ['#!/bin/sh\nnpm test\n', 'avp check --staged || exit $?'],
    ]) {
      const root = keyRepo();
      const hook = join(root, '.git/hooks/pre-commit');
      writeFileSync(hook, body!);
      const r = await init(root);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('avp did not write');
      expect(r.stderr).toContain(hint!);
      expect(readFileSync(hook, 'utf8')).toBe(body!);
    }
    const scoped = await init(keyRepo(), ['--user']);
    expect(scoped.code).toBe(2);
  });

  test('outside a git repository: a clear error', async () => {
    const dir = tempDir('avp-ci-nogit-');
    const r = await init(dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not inside a git work tree');
  });
});

const hasPreCommit = Bun.spawnSync(['sh', '-c', 'command -v pre-commit']).exitCode === 0;

describe('.pre-commit-hooks.yaml', () => {
  test.skipIf(!hasPreCommit)('the pre-commit framework runs avp-check from this repository', () => {
    // A repository holding only the hooks manifest, as pre-commit clones it by URL and rev.
    const hooksRepo = gitRepo({});
    cpSync(resolve(import.meta.dir, '../../.pre-commit-hooks.yaml'), join(hooksRepo, '.pre-commit-hooks.yaml'));
    sh(hooksRepo, 'git add -A && git commit -qm hooks');
    const rev = sh(hooksRepo, 'git rev-parse HEAD').trim();
    const root = keyRepo();
    writeFileSync(
      join(root, '.pre-commit-config.yaml'),
      `repos:\n  - repo: ${hooksRepo}\n    rev: ${rev}\n    hooks:\n      - id: avp-check\n`,
    );
    writeFileSync(join(root, 'a.ts'), 'const k = "sk-live-framework4";\n');
    sh(root, 'git add -A');
    const env = { ...process.env, ...ENV, PRE_COMMIT_HOME: join(home, 'pre-commit-cache') };
    const p = Bun.spawnSync(['pre-commit', 'run'], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
    expect(p.exitCode).toBe(1);
    expect(`${p.stdout}`).toContain('a.ts:1');
    writeFileSync(join(root, 'a.ts'), 'const k = process.env.K;\n');
    sh(root, 'git add -A');
    const ok = Bun.spawnSync(['pre-commit', 'run'], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
    expect(`${ok.stdout}${ok.stderr}`).toContain('Passed');
    expect(ok.exitCode).toBe(0);
  });
});
