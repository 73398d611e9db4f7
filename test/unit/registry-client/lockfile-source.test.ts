/** `catalog:NAME` specs, and lockfile entries read with their source checked or inferred. */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inferSource, readLockfile } from '../../../src/registry-client/lockfile.ts';
import { parseSpec } from '../../../src/registry-client/resolve.ts';

const lockWith = (packages: unknown): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'avp-rc-lock-')), 'avp-lock.json');
  writeFileSync(path, JSON.stringify({ version: '1.0.0', lockfileVersion: 1, packages }));
  return path;
};

describe('catalog: specs', () => {
  test('name and range, checked like registry names; never a local folder of that name', async () => {
    expect(await parseSpec('catalog:no-secrets', '/')).toEqual({
      kind: 'catalog',
      name: 'no-secrets',
      range: 'latest',
      raw: 'catalog:no-secrets',
    });
    expect(await parseSpec('catalog:no-secrets@^1', '/')).toMatchObject({ kind: 'catalog', range: '^1' });
    await expect(parseSpec('catalog:No_Secrets', '/')).rejects.toMatchObject({ code: 'spec-invalid' });
    await expect(parseSpec('catalog:no-secrets@banana', '/')).rejects.toMatchObject({ code: 'spec-range-invalid' });
    await expect(parseSpec('catalog:', '/')).rejects.toMatchObject({ code: 'spec-invalid' });
  });
});

describe('lockfile sources', () => {
  test('a missing source is inferred from resolved (the earlier client installed from registries only)', () => {
    expect(inferSource('catalog:no-secrets@1.0.0')).toBe('catalog');
    expect(inferSource('file:/abs/dir')).toBe('file');
    expect(inferSource('git+https://example.test/r.git#0123456789012345678901234567890123456789')).toBe('git');
    expect(inferSource('https://registry.example/api/packages/x/1.0.0/download')).toBe('registry');
    const lf = readLockfile(
      lockWith({
        old: { version: '1.0.0', resolved: 'https://r.example/d', integrity: 'sha512-x', installedAt: 'then' },
        cat: { version: '1.0.0', resolved: 'catalog:cat@1.0.0', integrity: 'sha512-y', installedAt: 'then' },
        kept: { version: '1.0.0', resolved: 'https://u.example/x.zip', integrity: 'sha512-z', source: 'url' },
      }),
    );
    expect(Object.fromEntries(Object.entries(lf.packages).map(([n, e]) => [n, e.source]))).toEqual({
      old: 'registry',
      cat: 'catalog',
      kept: 'url',
    });
  });

  test('an unknown source or an entry without its strings is refused, naming the file and the entry', () => {
    const unknown = lockWith({ x: { version: '1', resolved: 'r', integrity: 'i', source: 'ftp' } });
    expect(() => readLockfile(unknown)).toThrow(`${unknown}: entry "x" has unknown source "ftp"`);
    const partial = lockWith({ y: { version: '1', resolved: 7 } });
    expect(() => readLockfile(partial)).toThrow(`${partial}: entry "y" has no string resolved, integrity`);
    const notObject = lockWith({ z: 'latest' });
    expect(() => readLockfile(notObject)).toThrow(`${notObject}: entry "z" has no string version, resolved, integrity`);
  });
});
