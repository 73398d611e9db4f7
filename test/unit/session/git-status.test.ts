import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findGitPaths } from '../../../src/session/git-paths.ts';
import { gitSnapshot } from '../../../src/session/git-status.ts';
import { gitRepo, sh, tempProject } from './helpers.ts';

/** One git run as the snapshot ran them before: `-z` output split, in `cwd`, never taking index.lock. */
function run(cwd: string, args: string[]): string[] {
  const p = Bun.spawnSync(['git', ...args], { cwd, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' }, stdout: 'pipe' });
  if (p.exitCode !== 0 && p.exitCode !== 1) throw new Error(`git ${args.join(' ')} exited ${p.exitCode}`);
  return p.stdout.toString().split('\0');
}

/**
 * What the four runs one `git status` replaced said: `ls-files -m` (tag C), `ls-files -o --exclude-standard` (tag ?),
 * `diff --cached --raw` (staged, skipping submodule commits) and `rev-parse HEAD`.
 */
function byTheFourRuns(root: string) {
  const dirty = new Map<string, string>();
  for (const p of run(root, ['ls-files', '-z', '-m'])) if (p && !dirty.has(p)) dirty.set(p, 'C');
  for (const p of run(root, ['ls-files', '-z', '-o', '--exclude-standard'])) if (p && !dirty.has(p)) dirty.set(p, '?');
  const staged: Record<string, string | null> = {};
  const raw = run(root, ['diff', '--cached', '--raw', '--no-abbrev', '-z', '--no-renames', '--relative']);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const [, mode, , blob, status] = raw[i]!.split(' ');
    if (mode !== '160000') staged[raw[i + 1]!] = status === 'D' ? null : blob!;
  }
  const head = run(root, ['rev-parse', '--verify', '-q', 'HEAD'])[0]!.trim() || null;
  return { dirty: [...dirty].sort(), staged, head };
}

async function byStatus(root: string) {
  const s = await gitSnapshot(root, 20_000, undefined);
  if (!s) throw new Error('no git snapshot');
  const dirty = new Map<string, string>();
  for (const [tag, rel] of s.dirty) if (!dirty.has(rel)) dirty.set(rel, tag);
  return { dirty: [...dirty].sort(), staged: s.git.staged, head: s.git.head };
}

const commit = (root: string, msg = 'c') => sh(root, `git add -A && git commit -qm ${msg}`);

describe('one git status says what ls-files -m/-o, diff --cached and rev-parse said', () => {
  test('modified, deleted, staged, staged then edited, removed from the index, intent-to-add, untracked, nested', async () => {
    const root = tempProject();
    gitRepo(root);
    sh(root, 'mkdir -p d/e && for f in a b c s r i; do echo $f > $f.txt; done && echo deep > d/e/f.txt');
    writeFileSync(join(root, 'sp ace.txt'), 'x\n');
    writeFileSync(join(root, 'line\nbreak.txt'), 'x\n');
    writeFileSync(join(root, '.gitignore'), 'ignored/\n*.log\n');
    commit(root);
    sh(root, 'echo A >> a.txt && rm b.txt && echo S > s.txt && git add s.txt && echo S2 >> s.txt');
    sh(root, 'git rm -q --cached r.txt && echo new > n.txt && git add n.txt && echo N > i2.txt && git add -N i2.txt');
    sh(root, 'echo "sp" >> "sp ace.txt" && mkdir -p ignored u/v && echo no > ignored/x && echo no > y.log');
    sh(root, 'echo u > u/v/w.txt && echo d >> d/e/f.txt && git rm -q c.txt');
    // A repository of its own inside, untracked: one entry (`nested/`) for both.
    sh(root, 'mkdir nested && cd nested && git init -q && echo x > x.txt');
    writeFileSync(join(root, 'line\nbreak.txt'), 'changed\n');
    const old = byTheFourRuns(root);
    expect(old.dirty.length).toBeGreaterThan(6);
    expect(Object.keys(old.staged).length).toBeGreaterThan(3);
    expect(await byStatus(root)).toEqual(old);
  });

  test('files changed in the second the index was written (racily clean) are found as ls-files -m finds them', async () => {
    const root = tempProject();
    gitRepo(root);
    // Same sizes, written right after the commit: git must compare their contents, not only their stat data.
    for (let round = 0; round < 3; round++) {
      sh(root, `for i in 1 2 3 4 5 6 7 8; do echo "r${round}-$i" > f$i.txt; done`);
      commit(root, `r${round}`);
      sh(root, `for i in 2 4 6 8; do echo "R${round}-$i" > f$i.txt; done`);
      const old = byTheFourRuns(root);
      expect(old.dirty).toEqual(['f2.txt', 'f4.txt', 'f6.txt', 'f8.txt'].map((f) => [f, 'C']));
      expect(await byStatus(root)).toEqual(old);
      commit(root, `s${round}`);
    }
  });

  test('a merge conflict, an unborn branch, and a project in a sub-folder', async () => {
    const root = tempProject();
    gitRepo(root);
    sh(root, 'echo fresh > f.txt && git add f.txt && echo u > u.txt');
    expect((await byStatus(root)).head).toBeNull();
    expect(await byStatus(root)).toEqual(byTheFourRuns(root));
    sh(root, 'mkdir -p pkg && echo base > pkg/m.txt && echo top > t.txt && git add -A && git commit -qm base');
    sh(root, 'git checkout -qb other && echo theirs > pkg/m.txt && git commit -qam theirs && git checkout -q -');
    sh(root, 'echo ours > pkg/m.txt && git commit -qam ours && (git merge -q other >/dev/null 2>&1 || true)');
    sh(root, 'echo x >> t.txt && echo n > pkg/new.txt && echo s > pkg/s.txt && git add pkg/s.txt');
    expect(await byStatus(root)).toEqual(byTheFourRuns(root));
    const pkg = join(root, 'pkg');
    const inPkg = await byStatus(pkg);
    expect(inPkg).toEqual(byTheFourRuns(pkg));
    expect(inPkg.dirty.map(([rel]) => rel)).toEqual(['m.txt', 'new.txt']);
    expect((await findGitPaths(undefined, pkg))?.prefix).toBe('pkg/');
  });

  test('a submodule whose checked-out commit moved is listed as ls-files -m lists it, its own edits are not', async () => {
    const root = tempProject();
    const lib = tempProject();
    gitRepo(lib);
    sh(lib, 'echo 1 > l.txt && git add . && git commit -qm one && echo 2 > l.txt && git commit -qam two');
    gitRepo(root);
    sh(root, `git -c protocol.file.allow=always submodule -q add "${lib}" lib && git commit -qm sub`);
    sh(root, 'cd lib && git checkout -q HEAD~1 && echo dirty > l.txt && echo u > untracked.txt');
    const old = byTheFourRuns(root);
    expect(old.dirty).toEqual([['lib', 'C']]);
    expect(await byStatus(root)).toEqual(old);
  });
});
