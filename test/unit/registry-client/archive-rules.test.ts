/**
 * The archive rules one listing at a time (entrySegments, checkEntries), without a zip around them: each refusal with
 * its code, reason and fix, and the listings that are accepted. archive.test.ts drives the same rules through real
 * zips and tarballs; here every rule is reached alone, so a rule that stopped refusing cannot hide behind another.
 */
import { describe, expect, test } from 'bun:test';
import { checkEntries, entrySegments, isExcludedName } from '../../../src/registry-client/archive-rules.ts';
import type { RawEntry } from '../../../src/registry-client/zip-reader.ts';

const entry = (name: string, kind: RawEntry['kind'] = name.endsWith('/') ? 'directory' : 'file'): RawEntry => ({
  name,
  kind,
  declaredSize: 1,
  read: () => new Uint8Array([0x61]),
});

function refusal(run: () => unknown): { code: string; message: string; fix?: string } {
  try {
    run();
  } catch (e) {
    const err = e as { code: string; message: string; fix?: string };
    return { code: err.code, message: err.message, fix: err.fix };
  }
  throw new Error('accepted');
}

const UNSAFE_FIX = 'do not install this package; report it to the registry';

describe('entrySegments: unsafe names', () => {
  test.each([
    ['', 'empty name'],
    ['pkg/a\u0000b', 'control character in the name'],
    ['pkg/a\nb', 'control character in the name'],
    ['pkg/a\u001fb', 'control character in the name'],
    ['pkg/a\u007fb', 'control character in the name'],
    ['pkg//a', 'empty or "." segment'],
    ['pkg/./a', 'empty or "." segment'],
    ['./pkg/a', 'empty or "." segment'],
    ['pkg/a//', 'empty or "." segment'],
  ])('%j: %s', (name, why) => {
    expect(refusal(() => entrySegments(name))).toEqual({
      code: 'archive-unsafe-path',
      message: `the package archive has an unsafe entry ${JSON.stringify(name)}: ${why}`,
      fix: UNSAFE_FIX,
    });
  });

  test('safe names: segments, and whether the entry names a folder', () => {
    expect(entrySegments('pkg/scripts/check.sh')).toEqual({ segments: ['pkg', 'scripts', 'check.sh'], isDir: false });
    expect(entrySegments('pkg/scripts/')).toEqual({ segments: ['pkg', 'scripts'], isDir: true });
    expect(entrySegments('pkg/a b-c_d.1.md')).toEqual({ segments: ['pkg', 'a b-c_d.1.md'], isDir: false });
  });
});

test('isExcludedName: dot names, target and node_modules, nothing else', () => {
  for (const n of ['.git', '.env', 'target', 'node_modules']) expect(isExcludedName(n)).toBe(true);
  for (const n of ['scripts', 'a.target', 'targets', 'node_module', 'x.']) expect(isExcludedName(n)).toBe(false);
});

describe('checkEntries', () => {
  test('accepts one top folder; paths relative to it; a folder listed twice is harmless', () => {
    const r = checkEntries([entry('pkg/'), entry('pkg/VALIDATOR.md'), entry('pkg/scripts/'), entry('pkg/scripts/')]);
    expect(r.top).toBe('pkg');
    expect(r.entries.map((e) => [e.path, e.isDir])).toEqual([
      ['', true],
      ['VALIDATOR.md', false],
      ['scripts', true],
    ]);
  });

  test("a folder entry without a trailing slash (a tarball's) is a folder by its kind", () => {
    const r = checkEntries([entry('pkg', 'directory'), entry('pkg/scripts', 'directory'), entry('pkg/scripts/a.sh')]);
    expect(r.entries.map((e) => e.isDir)).toEqual([true, true, false]);
  });

  test.each([
    ['other', 'special file'],
    ['fifo', 'fifo'],
    ['symlink', 'symlink'],
  ] as const)('a %s entry is refused as a %s', (kind, said) => {
    expect(refusal(() => checkEntries([entry('pkg/'), entry('pkg/x', kind)]))).toEqual({
      code: 'archive-unsafe-entry',
      message: `the package archive has a ${said} entry "pkg/x"; only regular files and folders are allowed`,
      fix: 'do not install this package; a publisher must replace links and special files with regular files',
    });
  });

  test('everything under one top folder', () => {
    expect(refusal(() => checkEntries([entry('pkg/'), entry('other/a')]))).toEqual({
      code: 'archive-wrong-top',
      message: 'the package archive must hold one top folder with everything inside it, but has "pkg" and "other/a"',
      fix: 'pack the validator directory itself (`avp publish <dir>`), so every entry is `<folder>/…`',
    });
  });

  test('a file listed twice, or a file and a folder of the same name, is a duplicate', () => {
    const fix = 'do not install this package; a duplicate entry lets one file hide another';
    expect(refusal(() => checkEntries([entry('pkg/a'), entry('pkg/a')]))).toEqual({
      code: 'archive-duplicate-entry',
      message: 'the package archive entry "pkg/a" appears twice',
      fix,
    });
    expect(refusal(() => checkEntries([entry('pkg/a/'), entry('pkg/a')])).message).toBe(
      'the package archive entry "pkg/a" appears twice',
    );
    expect(refusal(() => checkEntries([entry('pkg/a'), entry('pkg/a/')])).code).toBe('archive-duplicate-entry');
  });

  test('a file that is also the folder of a later or earlier entry', () => {
    const expected = {
      code: 'archive-duplicate-entry',
      message: 'the package archive has "scripts" both as a file and as a folder',
      fix: 'do not install this package',
    };
    expect(refusal(() => checkEntries([entry('pkg/scripts'), entry('pkg/scripts/a.sh')]))).toEqual(expected);
    expect(refusal(() => checkEntries([entry('pkg/scripts/a.sh'), entry('pkg/scripts')]))).toEqual(expected);
    expect(refusal(() => checkEntries([entry('pkg/Scripts'), entry('pkg/scripts/deep/a.sh')])).message).toBe(
      'the package archive has "Scripts" both as a file and as a folder',
    );
  });

  test('an empty listing', () => {
    expect(refusal(() => checkEntries([]))).toEqual({
      code: 'archive-empty',
      message: 'the package archive is empty',
      fix: 'publish a directory holding VALIDATOR.md',
    });
  });
});
