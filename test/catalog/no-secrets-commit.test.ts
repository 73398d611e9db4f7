/**
 * no-secrets before a `git commit` runs (validators/no-secrets/scripts/shell.ts, check.ts): what the commit would
 * take, read from a real repository — the staged diff; with `-a` the working tree's changes too; with a `git add` in
 * the same command the untracked files as well (bounded in size) — and the diff reader itself.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '../../validators/no-secrets/scripts/check.ts';
import { diffFiles } from '../../validators/no-secrets/scripts/shell.ts';
import { tempDir } from '../support/run-avp.ts';
import { randomText } from './no-secrets-samples.ts';

const r = randomText(9001);
const token = () => `ghp_${r(36)}`;

function git(cwd: string, ...args: string[]) {
  const p = Bun.spawnSync(['git', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${p.stderr.toString()}`);
}

/** A repository with a staged token, a tracked file changed but not staged, and an untracked file. */
function repo(): string {
  const root = tempDir('avp-commit-');
  mkdirSync(join(root, 'src'));
  git(root, 'init', '-q');
  git(root, 'config', 'user.email', 'dev@acme.test');
  git(root, 'config', 'user.name', 'Dev');
  writeFileSync(join(root, 'src/tracked.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'café.ts'), 'export const b = 2;\n');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'init');
  writeFileSync(join(root, 'src/staged.ts'), `// staged\nexport const t = "${token()}";\n`);
  writeFileSync(join(root, 'café.ts'), `export const b = 2;\nexport const u = "${token()}";\n`);
  git(root, 'add', 'src/staged.ts', 'café.ts');
  writeFileSync(join(root, 'src/tracked.ts'), `export const a = 1;\nexport const v = "${token()}";\n`);
  writeFileSync(join(root, 'src/new.ts'), `\n\nexport const w = "${token()}";\n`);
  return root;
}

const judge = (command: string, cwd: string, root = cwd) =>
  validate({ event: 'PreToolUse', tool: 'Bash', toolInput: { command }, cwd, projectRoot: root, files: [] });
const where = (command: string, cwd: string, root = cwd) =>
  judge(command, cwd, root)
    .violations.map((v) => `${v.file}:${v.line}`)
    .sort();

describe('what a git commit would commit', () => {
  test('plain commit: the staged changes only, named by their path (non-ASCII names too) and line', () => {
    const root = repo();
    expect(where('git commit -m wip', root)).toEqual(['café.ts:2', 'src/staged.ts:2']);
    const v = judge('git commit -m wip', root).violations.find((x) => x.file === 'src/staged.ts')!;
    expect(v.message).toStartWith('git commit would commit it: GitHub token');
    expect(v.suggestion).toContain('git restore --staged src/staged.ts');
  });
  test('commit -a: the working tree changes too, not the untracked files', () => {
    expect(where('git commit -am wip', repo())).toEqual(['café.ts:2', 'src/staged.ts:2', 'src/tracked.ts:2']);
  });
  test('git add and commit in one command: the untracked files as well, also from a subdirectory', () => {
    const all = ['café.ts:2', 'src/new.ts:3', 'src/staged.ts:2', 'src/tracked.ts:2'];
    expect(where('git add . && git commit -m wip', repo())).toEqual(all);
    const root = repo();
    expect(where('git add -A && git commit -m wip', join(root, 'src'), root)).toEqual(all);
  });
  test('untracked files up to 512 KiB are read; larger ones and what is not a file are skipped', () => {
    const root = repo();
    const sized = (bytes: number) => {
      const line = `export const k = "${token()}";\n`;
      return line + '/'.repeat(bytes - line.length - 1) + '\n';
    };
    writeFileSync(join(root, 'src/edge.ts'), sized(512 * 1024));
    writeFileSync(join(root, 'src/big.ts'), sized(512 * 1024 + 1));
    symlinkSync(join(root, 'missing'), join(root, 'src/dangling.ts'));
    const found = where('git add . && git commit -m wip', root);
    expect(found).toContain('src/edge.ts:1');
    expect(found.filter((f) => f.startsWith('src/big.ts') || f.startsWith('src/dangling.ts'))).toEqual([]);
  });
  test('outside a repository a commit has nothing to judge', () => {
    const dir = tempDir('avp-norepo-');
    expect(judge('git add . && git commit -am wip', dir).passed).toBe(true);
  });
});

test('the diff reader: + lines numbered in the new file, across hunks and files; deleted files skipped', () => {
  const diff = [
    'diff --git a/a.env b/a.env',
    '--- a/a.env',
    '+++ b/a.env',
    '@@ -1,2 +1,3 @@',
    ' K=1',
    '+L=2',
    ' M=3',
    '@@ -10 +11,2 @@',
    '-old',
    '+N=4',
    '+O=5',
    'diff --git a/gone.txt b/gone.txt',
    '--- a/gone.txt',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-x',
    'diff --git a/new.txt b/new.txt',
    '--- /dev/null',
    '+++ b/new.txt',
    '@@ -0,0 +1 @@',
    '+P=6',
  ].join('\n');
  expect(diffFiles(diff)).toEqual([
    {
      file: 'a.env',
      added: [
        { line: 2, text: 'L=2' },
        { line: 11, text: 'N=4' },
        { line: 12, text: 'O=5' },
      ],
    },
    { file: 'new.txt', added: [{ line: 1, text: 'P=6' }] },
  ]);
});
