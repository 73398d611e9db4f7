import { afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedGitPaths, findGitPaths, mayBeRepository } from '../../../src/session/git-paths.ts';
import { prepareEvent } from '../../../src/session/session.ts';
import { ensureSessionDir } from '../../../src/session/store.ts';
import { config, ev, gitRepo, sh, tempProject } from './helpers.ts';

/** A `git` first on PATH that logs each run, so a test can count them. */
const shim = tempProject('avp-git-shim-');
const log = join(shim, 'runs.log');
writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$*" >> "${log}"\nexec "${Bun.which('git')}" "$@"\n`);
chmodSync(join(shim, 'git'), 0o755);
const realPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = realPath;
});
/** The git commands run since the last call (`-c name=value` skipped), sorted: parallel runs log in any order. */
function gitRuns(): string[] {
  const runs = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  rmSync(log, { force: true });
  return runs.map((r) => r.replace(/^(-c \S+ )*/, '').split(' ')[0]!).sort();
}

const bash = (root: string, event: string, id: string) =>
  ev(root, event, { tool: 'Bash', toolInput: { command: '…' }, raw: { tool_use_id: id } });
let calls = 0;
async function around(root: string, command: string) {
  const id = `t${calls++}`;
  await prepareEvent(bash(root, 'PreToolUse', id), config());
  sh(root, command);
  const post = await prepareEvent(bash(root, 'PostToolUse', id), config());
  return Object.fromEntries(post.files.map((f) => [f.relPath, f]));
}

/** Repositories made once and left to age: the cache never trusts a key file younger than 2 s. */
const aged = { plain: '', nested: '', hollow: '', inner: '', config: '', stale: '', linked: '' };
beforeAll(async () => {
  for (const k of Object.keys(aged) as Array<keyof typeof aged>) {
    aged[k] = tempProject();
    gitRepo(aged[k]);
    sh(aged[k], 'mkdir -p pkg && echo v1 > pkg/a.txt && echo t > t.txt && git add . && git commit -qm init');
  }
  // `hollow`'s project holds an empty `.git` folder, which git passes over; `inner`'s a repository of its own.
  mkdirSync(join(aged.hollow, 'pkg', '.git'));
  gitRepo(join(aged.inner, 'pkg'));
  sh(join(aged.inner, 'pkg'), 'git add . && git commit -qm inner');
  // `linked`: a worktree of `plain`'s repository (its `.git` is a file; info/exclude is in the common folder).
  aged.linked = join(tempProject(), 'linked');
  sh(aged.plain, `git worktree add -q "${aged.linked}"`);
  await Bun.sleep(2100);
}, 30_000);

describe("where the project sits in git, kept in the session's folder", () => {
  test('kept once its key is older than 2 s: later snapshots run one git (status); a fresh repository is not kept', async () => {
    const root = aged.plain;
    process.env.PATH = `${shim}:${realPath}`;
    gitRuns();
    await around(root, 'true');
    expect(gitRuns()).toEqual(['rev-parse', 'status', 'status']);
    const files = await around(root, 'echo v2 > pkg/a.txt');
    expect(gitRuns()).toEqual(['cat-file', 'status', 'status']);
    expect(files['pkg/a.txt']).toMatchObject({ before: 'v1\n', after: 'v2\n' });

    const fresh = tempProject();
    gitRepo(fresh);
    const dir = ensureSessionDir(fresh, 's1');
    expect((await findGitPaths(dir, fresh))?.top).toBeTruthy();
    expect(existsSync(join(dir, 'git-paths.json'))).toBe(false);
  });

  test('a `git init` in the project (a sub-folder of the repository), also in an empty .git folder: still judged', async () => {
    for (const root of [join(aged.nested, 'pkg'), join(aged.hollow, 'pkg')]) {
      await around(root, 'true');
      expect(cachedGitPaths(ensureSessionDir(root, 's1'), root)?.prefix).toBe('pkg/');
      const files = await around(root, 'git init -q && echo KEY=1 > new.txt');
      expect(files['new.txt']).toMatchObject({ kind: 'create', after: 'KEY=1\n' });
      expect(files['pkg/new.txt']).toBeUndefined();
    }
  });

  test("the project's own repository broken (HEAD moved away): git finds the outer one, and so does avp", async () => {
    const root = join(aged.inner, 'pkg');
    await around(root, 'true');
    expect(cachedGitPaths(ensureSessionDir(root, 's1'), root)?.prefix).toBe('');
    const files = await around(root, 'mv .git/HEAD .git/HEAD.away && echo KEY=1 > new.txt');
    expect(files['new.txt']).toMatchObject({ kind: 'create', after: 'KEY=1\n' });
    expect(Object.keys(files).filter((f) => f.startsWith('pkg/'))).toEqual([]);
  });

  test('an in-place edit of .git/config, another GIT_* variable, a foreign or broken cache file: not used', async () => {
    const root = aged.config;
    const dir = ensureSessionDir(root, 's1');
    expect(await findGitPaths(dir, root)).toBeDefined();
    expect(cachedGitPaths(dir, root)).toBeDefined();
    process.env.GIT_CEILING_DIRECTORIES = '/nowhere';
    expect(cachedGitPaths(dir, root)).toBeUndefined();
    delete process.env.GIT_CEILING_DIRECTORIES;
    expect(cachedGitPaths(dir, root)).toBeDefined();
    expect(cachedGitPaths(dir, join(root, 'pkg'))).toBeUndefined();
    const kept = readFileSync(join(dir, 'git-paths.json'), 'utf8');
    writeFileSync(join(dir, 'git-paths.json'), kept.slice(0, -3));
    expect(cachedGitPaths(dir, root)).toBeUndefined();
    writeFileSync(join(dir, 'git-paths.json'), kept);
    // Appended in place: the git folder's entries stay as they were, only the file's own size and ctime move.
    sh(root, 'printf "[avp]\\n\\tnote = 1\\n" >> .git/config');
    await Bun.sleep(2100);
    expect(cachedGitPaths(dir, root)).toBeUndefined();
  }, 30_000);

  test('a change younger than 2 s to a file of the key is never trusted, even when the key matches', async () => {
    const root = aged.stale;
    const dir = ensureSessionDir(root, 's1');
    expect(await findGitPaths(dir, root)).toBeDefined();
    expect(cachedGitPaths(dir, root)).toBeDefined();
    sh(root, 'touch .git/HEAD');
    expect(cachedGitPaths(dir, root)).toBeUndefined();
  });
});

describe('a linked worktree', () => {
  test('its paths are kept like any other and its changes seen; the exclude file is the common one', async () => {
    const root = aged.linked;
    await around(root, 'true');
    const kept = cachedGitPaths(ensureSessionDir(root, 's1'), root);
    expect(kept).toMatchObject({ prefix: '', exclude: join(realpathSync(aged.plain), '.git', 'info', 'exclude') });
    process.env.PATH = `${shim}:${realPath}`;
    gitRuns();
    const files = await around(root, 'echo v2 > pkg/a.txt');
    expect(gitRuns()).toEqual(['cat-file', 'status', 'status']);
    expect(files['pkg/a.txt']).toMatchObject({ before: 'v1\n', after: 'v2\n' });
  });
});

describe('line breaks in folder names', () => {
  test("in the project's folder (the prefix): paths still project-relative, befores from the index", async () => {
    const top = tempProject();
    gitRepo(top);
    sh(top, 'mkdir "we\nird" && echo v1 > "we\nird/a.txt" && echo t > t.txt && git add . && git commit -qm init');
    const root = join(top, 'we\nird');
    expect((await findGitPaths(undefined, root))?.prefix).toBe('we\nird/');
    const files = await around(root, 'echo v2 > a.txt && echo t2 > ../t.txt');
    expect(Object.keys(files)).toEqual(['a.txt']);
    expect(files['a.txt']).toMatchObject({ kind: 'update', before: 'v1\n', after: 'v2\n' });
  });

  test("in the repository's own path: no guess at git's lines, the project is walked and the change seen", async () => {
    const top = join(tempProject(), 'repo\nx');
    mkdirSync(top);
    gitRepo(top);
    sh(top, 'echo v1 > a.txt && git add . && git commit -qm init');
    expect(await findGitPaths(undefined, top)).toBeUndefined();
    const files = await around(top, 'echo v2 > a.txt');
    expect(files['a.txt']).toMatchObject({ kind: 'update', before: 'v1\n', after: 'v2\n' });
  });
});

describe('mayBeRepository: no git run where git would find no repository', () => {
  test('no .git anywhere, or a .git folder without HEAD: none; a .git file, HEAD, GIT_DIR: maybe', () => {
    const root = tempProject();
    expect(mayBeRepository(root)).toBe(false);
    mkdirSync(join(root, '.git'));
    expect(mayBeRepository(root)).toBe(false);
    mkdirSync(join(root, 'sub'));
    expect(mayBeRepository(join(root, 'sub'))).toBe(false);
    writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(mayBeRepository(join(root, 'sub'))).toBe(true);
    writeFileSync(join(root, 'sub', '.git'), 'gitdir: /elsewhere\n');
    rmSync(join(root, '.git'), { recursive: true });
    expect(mayBeRepository(join(root, 'sub'))).toBe(true);
    rmSync(join(root, 'sub', '.git'));
    writeFileSync(join(root, 'HEAD'), 'ref: refs/heads/main\n');
    expect(mayBeRepository(join(root, 'sub'))).toBe(true);
    rmSync(join(root, 'HEAD'));
    process.env.GIT_DIR = join(root, 'x');
    try {
      expect(mayBeRepository(root)).toBe(true);
    } finally {
      delete process.env.GIT_DIR;
    }
    expect(mayBeRepository(root)).toBe(false);
  });
});
