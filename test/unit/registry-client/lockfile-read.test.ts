/**
 * Reading and writing the lockfile, every refusal with its code, file and fix (a broken lockfile must stop an
 * install with a message the user can act on, never install from a half-read file), and where each scope keeps it.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AvpError } from '../../../src/errors.ts';
import {
  lockfilePath,
  readLockfile,
  scopeHome,
  scopeValidatorsDir,
  writeLockfile,
} from '../../../src/registry-client/lockfile.ts';

const dir = mkdtempSync(join(tmpdir(), 'avp-lockfile-read-'));
const ENTRY = {
  version: '1.0.0',
  resolved: 'https://r.example/x/1.0.0/download',
  integrity: 'sha512-abc',
  installedAt: '2026-01-01T00:00:00.000Z',
};

function refusal(text: string): AvpError {
  const path = join(dir, `lock-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, text);
  try {
    readLockfile(path);
  } catch (e) {
    expect(e).toBeInstanceOf(AvpError);
    expect((e as AvpError).file).toBe(path);
    expect((e as AvpError).message).toContain(path);
    return e as AvpError;
  }
  throw new Error(`read without an error: ${text}`);
}

describe('readLockfile refuses what it cannot read whole', () => {
  test('not JSON: lockfile-invalid, with the parser message and the restore fix', () => {
    const e = refusal('{"packages": ');
    expect(e.code).toBe('lockfile-invalid');
    expect(e.message).toContain('is not valid JSON: ');
    expect(e.fix).toBe(
      'restore it from version control (git checkout -- .avp/avp-lock.json), or delete it and re-add the validators',
    );
  });

  test.each([
    ['null', 'null'],
    ['a number', '7'],
    ['a string', '"packages"'],
    ['no packages', '{"lockfileVersion": 1}'],
    ['packages null', '{"packages": null}'],
    ['packages a string', '{"packages": "x"}'],
  ])('%s: lockfile-invalid, no "packages" object', (_what, text) => {
    const e = refusal(text);
    expect(e.code).toBe('lockfile-invalid');
    expect(e.message).toContain('has no "packages" object');
    expect(e.fix).toBe('restore it from version control');
  });

  test('another lockfileVersion: lockfile-version, naming it and the fix', () => {
    const e = refusal('{"lockfileVersion": 2, "packages": {}}');
    expect(e.code).toBe('lockfile-version');
    expect(e.message).toContain('is lockfileVersion 2; this avp reads version 1');
    expect(e.fix).toBe('upgrade avp');
  });

  test.each([
    ['null', null, 'version, resolved, integrity'],
    ['a string', 'x', 'version, resolved, integrity'],
    ['no integrity', { version: '1.0.0', resolved: 'r' }, 'integrity'],
    ['a number version', { ...ENTRY, version: 1 }, 'version'],
    ['no resolved', { version: '1.0.0', integrity: 'sha512-x' }, 'resolved'],
  ])('an entry that is %s: lockfile-invalid naming the entry and what it lacks', (_what, raw, missing) => {
    const e = refusal(JSON.stringify({ packages: { demo: raw } }));
    expect(e.code).toBe('lockfile-invalid');
    expect(e.message).toContain(`: entry "demo" has no string ${missing}`);
    expect(e.fix).toBe('restore the file from version control, or remove the entry and re-add it: avp add demo');
  });

  test('an unknown source names the known ones', () => {
    const e = refusal(JSON.stringify({ packages: { demo: { ...ENTRY, source: 'ftp' } } }));
    expect(e.code).toBe('lockfile-invalid');
    expect(e.message).toContain('entry "demo" has unknown source "ftp"');
    expect(e.fix).toBe(
      'use one of registry, catalog, file, git, url, or upgrade avp (a newer avp may have written it)',
    );
  });
});

describe('readLockfile reads', () => {
  test('a missing file as an empty lockfile', () => {
    expect(readLockfile(join(dir, 'absent.json'))).toEqual({ version: '1.0.0', lockfileVersion: 1, packages: {} });
  });

  test('a lockfile without lockfileVersion (the earlier client) and every known source', () => {
    const path = join(dir, 'old.json');
    const sources: string[] = ['registry', 'catalog', 'file', 'git', 'url'];
    const packages = Object.fromEntries(sources.map((s) => [`v-${s}`, { ...ENTRY, source: s }]));
    writeFileSync(path, JSON.stringify({ version: '0.9.0', packages }));
    const lf = readLockfile(path);
    expect(lf.version).toBe('1.0.0');
    expect(lf.lockfileVersion).toBe(1);
    expect(Object.values(lf.packages).map((e): string => e.source)).toEqual(sources);
  });
});

describe('writeLockfile', () => {
  test('packages in name order, the current shape, a final newline, no temp file left', () => {
    const sub = mkdtempSync(join(dir, 'w-'));
    const path = join(sub, 'deep', 'avp-lock.json');
    writeLockfile(path, {
      version: '1.0.0',
      lockfileVersion: 1,
      packages: { zeta: { ...ENTRY, source: 'registry' }, alpha: { ...ENTRY, source: 'catalog' } },
    });
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(text);
    expect(text.startsWith('{\n  "version": "1.0.0",\n  "lockfileVersion": 1,\n')).toBe(true);
    expect(parsed.version).toBe('1.0.0');
    expect(parsed.lockfileVersion).toBe(1);
    expect(Object.keys(parsed.packages)).toEqual(['alpha', 'zeta']);
    expect(readdirSync(join(sub, 'deep'))).toEqual(['avp-lock.json']);
    expect(readLockfile(path).packages.alpha!.source).toBe('catalog');
  });
});

describe('where each scope keeps its validators and lockfile', () => {
  const env = { HOME: '/home/u', AVP_HOME: '/home/u/.avp-custom' };
  test('user: $AVP_HOME; project: <project>/.avp — never the current directory', () => {
    expect(scopeHome('user', '/p', env)).toBe('/home/u/.avp-custom');
    expect(scopeHome('project', '/p', env)).toBe('/p/.avp');
    expect(scopeValidatorsDir('user', '/p', env)).toBe('/home/u/.avp-custom/validators');
    expect(scopeValidatorsDir('project', '/p', env)).toBe('/p/.avp/validators');
    expect(lockfilePath('user', '/p', env)).toBe('/home/u/.avp-custom/avp-lock.json');
    expect(lockfilePath('project', '/p', env)).toBe('/p/.avp/avp-lock.json');
  });
});
