/**
 * Real paths, case sensitivity and the project root. Symlinks and project finding use real folders; case-insensitive
 * file systems use an injected probe, because none can be made on this machine (no vfat/casefold in its kernel).
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AvpError } from '../../src/errors.ts';
import { findProjectRoot, isProjectRoot, locateProject, relativize } from '../../src/paths.ts';
import { checkPathBounds, PathResolver, type FsProbe } from '../../src/os/real-paths.ts';
import { parsePatterns, validate } from '../../validators/protected-files/scripts/check.ts';
import { tempDir } from '../support/run-avp.ts';

/**
 * A fake disk: `dirs`/`files` exist as spelled; under a `nocase` folder, names match whatever their case (as on
 * macOS's default volumes, Windows, vfat or a Linux casefold folder), and realpath keeps the spelling asked for (as
 * Linux does).
 */
function fakeDisk(entries: string[], nocase: string[] = []): FsProbe {
  const canon = (p: string) => {
    const folded = nocase.find((d) => p.toLowerCase().startsWith(`${d.toLowerCase()}/`));
    return folded ? `${folded}${p.slice(folded.length)}`.toLowerCase() : p;
  };
  const known = new Map(entries.map((e, i) => [canon(e), String(i)]));
  const has = (p: string) => p === '/' || known.has(canon(p));
  return {
    realpath(p) {
      if (!has(p)) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return p;
    },
    readlink: () => undefined,
    identity: (p) => (p === '/' ? 'root' : known.get(canon(p))),
  };
}

describe('case sensitivity is measured, never assumed', () => {
  const disk = fakeDisk(['/vol', '/vol/proj', '/vol/proj/.claude', '/vol/proj/.claude/settings.json'], ['/vol']);

  test('an existing file under another case: same inode under the swapped name → case-insensitive', () => {
    const r = new PathResolver(disk).resolve('/vol/proj/.CLAUDE/settings.json');
    expect(r.caseInsensitive).toBe(true);
    const { relPath, inProject } = relativize(r.path, '/vol/proj', r.caseInsensitive);
    expect({ relPath, inProject }).toEqual({ relPath: '.CLAUDE/settings.json', inProject: true });
  });

  test('a file that does not exist yet is judged by its nearest existing ancestor', () => {
    expect(new PathResolver(disk).resolve('/vol/proj/.ENV').caseInsensitive).toBe(true);
    expect(new PathResolver(disk).resolve('/vol/proj/new/dir/.ENV').caseInsensitive).toBe(true);
  });

  test('the root spelled in another case is still the project', () => {
    const r = new PathResolver(disk).resolve('/VOL/Proj/src/a.ts');
    expect(relativize(r.path, '/vol/proj', r.caseInsensitive)).toEqual({ relPath: 'src/a.ts', inProject: true });
    expect(relativize(r.path, '/vol/proj', false).inProject).toBe(false);
  });

  test('a case-sensitive disk says so (the swapped name is another file, or none)', () => {
    const strict = fakeDisk(['/data', '/data/proj', '/data/proj/.claude', '/data/proj/.CLAUDE']);
    expect(new PathResolver(strict).resolve('/data/proj/.claude').caseInsensitive).toBe(false);
    expect(new PathResolver(strict).resolve('/data/proj/.env').caseInsensitive).toBe(false);
  });

  test('a name with no lower-case letter is probed too (swapped to lower case)', () => {
    const folded = fakeDisk(['/vol', '/vol/README', '/vol/MAKEFILE.TXT'], ['/vol']);
    expect(new PathResolver(folded).resolve('/vol/README').caseInsensitive).toBe(true);
    expect(new PathResolver(folded).resolve('/vol/MAKEFILE.TXT/x').caseInsensitive).toBe(true);
  });

  test('a name without letters says nothing: its folder decides; with none above, case matters', () => {
    const strict = fakeDisk(['/data', '/data/2024', '/1', '/1/2']);
    expect(new PathResolver(strict).resolve('/data/2024').caseInsensitive).toBe(false);
    expect(new PathResolver(strict).resolve('/1/2/3').caseInsensitive).toBe(false);
    const folded = fakeDisk(['/vol', '/vol/proj', '/vol/proj/2024'], ['/vol']);
    expect(new PathResolver(folded).resolve('/vol/proj/2024/7').caseInsensitive).toBe(true);
  });

  test("one resolver answers a folder's case once, and the same way for every path in it", () => {
    const r = new PathResolver(disk);
    for (const name of ['a.ts', 'b.ts', '.ENV']) expect(r.resolve(`/vol/proj/${name}`).caseInsensitive).toBe(true);
    const strict = new PathResolver(fakeDisk(['/data', '/data/proj']));
    for (const name of ['a.ts', 'b.ts']) expect(strict.resolve(`/data/proj/${name}`).caseInsensitive).toBe(false);
  });

  test('this machine: a real temp folder is case-sensitive (Linux ext4/tmpfs)', () => {
    const dir = tempDir('avp-case-');
    writeFileSync(join(dir, 'abc'), 'x');
    expect(new PathResolver().resolve(join(dir, 'abc')).caseInsensitive).toBe(false);
  });

  test('protected-files compares without case when the file system ignores it', () => {
    const list = parsePatterns('.env\n.claude/settings*.json\n');
    const file = (relPath: string, caseInsensitive: boolean) => ({
      files: [{ path: `/vol/proj/${relPath}`, relPath, caseInsensitive }],
      projectRoot: '/vol/proj',
    });
    expect(validate(file('.CLAUDE/settings.json', true), list).passed).toBe(false);
    expect(validate(file('config/.ENV', true), list).passed).toBe(false);
    expect(validate(file('.CLAUDE/settings.json', false), list).passed).toBe(true);
  });
});

describe('real paths on this disk', () => {
  test('a symlinked folder, a dangling symlink, and a missing tail under a symlink', () => {
    const root = realpathSync(tempDir('avp-real-'));
    mkdirSync(join(root, '.claude'));
    symlinkSync('.claude', join(root, 'cc'));
    symlinkSync('.claude/settings.local.json', join(root, 'dangling'));
    const r = new PathResolver();
    expect(r.resolve(join(root, 'cc/settings.json')).path).toBe(join(root, '.claude/settings.json'));
    expect(r.resolve(join(root, 'dangling')).path).toBe(join(root, '.claude/settings.local.json'));
    expect(r.resolve(join(root, 'cc/new/deeper/x.ts')).path).toBe(join(root, '.claude/new/deeper/x.ts'));
    expect(r.resolve(join(root, 'src/../cc/x')).path).toBe(join(root, '.claude/x'));
  });

  test('nothing of the path exists, not even its root (a drive that is gone): the path as given', () => {
    const nothing: FsProbe = { realpath: () => undefined, readlink: () => undefined, identity: () => undefined };
    expect(new PathResolver(nothing).resolve('/gone/x/y')).toEqual({ path: '/gone/x/y', caseInsensitive: false });
  });

  test('a chain of dangling links is followed for 40 hops, as the kernel follows symlinks, and no further', () => {
    const chain: FsProbe = {
      realpath: () => undefined,
      readlink: (p) => (/^\/l\d+$/.test(p) ? `/l${Number(p.slice(2)) + 1}` : undefined),
      identity: (p) => (p === '/' ? 'root' : undefined),
    };
    expect(new PathResolver(chain).resolve('/l0').path).toBe('/l40');
    expect(new PathResolver(chain).resolve('/l5').path).toBe('/l45');
  });

  test('a symlink loop ends (bounded hops), it does not hang or throw', () => {
    const root = realpathSync(tempDir('avp-loop-'));
    symlinkSync('b', join(root, 'a'));
    symlinkSync('a', join(root, 'b'));
    expect(typeof new PathResolver().resolve(join(root, 'a/x')).path).toBe('string');
  });
});

describe('the project root', () => {
  function tree() {
    const root = realpathSync(tempDir('avp-root-'));
    mkdirSync(join(root, 'proj/.git'), { recursive: true });
    mkdirSync(join(root, 'proj/src'));
    mkdirSync(join(root, 'other/.avp'), { recursive: true });
    mkdirSync(join(root, 'loose'));
    return root;
  }
  const none = {};

  test('cwd inside the project and the file too → the project of cwd', () => {
    const t = tree();
    const at = locateProject(join(t, 'proj/src'), join(t, 'proj/src/a.ts'), new PathResolver(), none);
    expect(at).toEqual({ root: join(t, 'proj'), isProject: true });
  });

  test('cwd `/`, missing or in another folder → the project holding the changed file', () => {
    const t = tree();
    for (const cwd of ['/', join(t, 'missing/deep'), join(t, 'loose')]) {
      const at = locateProject(cwd, join(t, 'proj/src/new/a.ts'), new PathResolver(), none);
      expect({ cwd, at }).toEqual({ cwd, at: { root: join(t, 'proj'), isProject: true } });
    }
  });

  test("cwd in a project, the file in another project → the file's project; in no project → cwd's", () => {
    const t = tree();
    expect(locateProject(join(t, 'proj'), join(t, 'other/x.md'), new PathResolver(), none).root).toBe(join(t, 'other'));
    expect(locateProject(join(t, 'proj'), join(t, 'loose/x.md'), new PathResolver(), none).root).toBe(join(t, 'proj'));
  });

  test('no project anywhere → cwd, marked as not a project (nothing may be written there)', () => {
    const t = tree();
    expect(locateProject(join(t, 'loose'), undefined, new PathResolver(), none)).toEqual({
      root: join(t, 'loose'),
      isProject: false,
    });
    expect(isProjectRoot(join(t, 'loose'), none)).toBe(false);
    expect(isProjectRoot(join(t, 'missing'), none)).toBe(false);
    expect(isProjectRoot(join(t, 'proj'), none)).toBe(true);
    expect(isProjectRoot(join(t, 'loose'), { CLAUDE_PROJECT_DIR: join(t, 'loose') })).toBe(true);
    expect(existsSync(join(t, 'loose/.avp'))).toBe(false);
  });

  test('CLAUDE_PROJECT_DIR wins, resolved to its real path', () => {
    const t = tree();
    symlinkSync(join(t, 'proj'), join(t, 'link'));
    const at = locateProject('/', join(t, 'other/x'), new PathResolver(), { CLAUDE_PROJECT_DIR: join(t, 'link') });
    expect(at).toEqual({ root: join(t, 'proj'), isProject: true });
    const missing = locateProject('/', undefined, new PathResolver(), { CLAUDE_PROJECT_DIR: join(t, 'gone') });
    expect(missing.isProject).toBe(false);
  });

  test('absurd paths throw a clear error before any walk', () => {
    const deep = '/a'.repeat(10_000);
    expect(() => checkPathBounds(deep, 'cwd')).toThrow(AvpError);
    expect(() => findProjectRoot(deep, {})).toThrow(/bytes long/);
    expect(() => findProjectRoot('/a'.repeat(600), {})).toThrow(/600 directories deep/);
    expect(() => findProjectRoot(`/${'x'.repeat(1 << 20)}`, {})).toThrow(/bytes long/);
    expect(() => checkPathBounds('/a/b/c', 'cwd')).not.toThrow();
  });
});
