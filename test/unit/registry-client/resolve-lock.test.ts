import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withFileLock } from '../../../src/os/file-lock.ts';
import { cleanText, errorBodyMessage, maskSecret } from '../../../src/registry-client/http.ts';
import { lockfilePath, readLockfile, writeLockfile } from '../../../src/registry-client/lockfile.ts';
import { isPackageName } from '../../../src/registry-client/manifest.ts';
import { parseSpec } from '../../../src/registry-client/resolve.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'avp-rc-unit-'));

describe('parseSpec', () => {
  test('registry names with ranges', async () => {
    expect(await parseSpec('no-secrets', '/')).toMatchObject({ kind: 'registry', name: 'no-secrets', range: 'latest' });
    expect(await parseSpec('no-secrets@^1.2', '/')).toMatchObject({
      kind: 'registry',
      name: 'no-secrets',
      range: '^1.2',
    });
    expect(await parseSpec('no-secrets@1.0.0', '/')).toMatchObject({ range: '1.0.0' });
    await expect(parseSpec('no-secrets@banana', '/')).rejects.toMatchObject({ code: 'spec-range-invalid' });
    await expect(parseSpec('No_Secrets', '/')).rejects.toMatchObject({ code: 'spec-invalid' });
  });

  test('paths, git forms, archive URLs, owner/repo', async () => {
    const dir = tmp();
    try {
      mkdirSync(join(dir, 'local'));
      expect(await parseSpec('./local', dir)).toMatchObject({ kind: 'dir', path: join(dir, 'local') });
      expect(await parseSpec('local', dir)).toMatchObject({ kind: 'dir' }); // an existing directory wins over a name
      await expect(parseSpec('./missing', dir)).rejects.toMatchObject({ code: 'spec-path-missing' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await parseSpec('git@github.com:o/r.git#v1', '/')).toMatchObject({
      kind: 'git',
      url: 'git@github.com:o/r.git',
      ref: 'v1',
    });
    expect(await parseSpec('https://example.com/o/r.git#main', '/')).toMatchObject({
      kind: 'git',
      url: 'https://example.com/o/r.git',
      ref: 'main',
    });
    expect(await parseSpec('git+file:///srv/r.git', '/')).toMatchObject({ kind: 'git', url: 'file:///srv/r.git' });
    expect(await parseSpec('https://example.com/p.tar.gz', '/')).toMatchObject({ kind: 'url' });
    expect(await parseSpec('https://example.com/p.zip?x=1', '/')).toMatchObject({ kind: 'url' });
    await expect(parseSpec('http://example.com/p.zip', '/')).rejects.toMatchObject({ code: 'spec-insecure-url' });
    expect(await parseSpec('http://127.0.0.1:8080/p.zip', '/')).toMatchObject({ kind: 'url' });
    expect(await parseSpec('acme/rules#v2', '/')).toMatchObject({
      kind: 'shorthand',
      name: 'acme/rules',
      url: 'https://github.com/acme/rules.git',
      ref: 'v2',
    });
  });

  test('package name rule', () => {
    for (const ok of ['a', 'no-secrets', 'x1-y2', 'a'.repeat(64)]) expect(isPackageName(ok)).toBe(true);
    for (const bad of ['', '-a', 'a-', 'a--b', 'A', 'a_b', 'a'.repeat(65), 'a/b'])
      expect(isPackageName(bad)).toBe(false);
  });
});

describe('withFileLock', () => {
  test('serializes holders and removes the lock afterwards', async () => {
    const dir = tmp();
    try {
      const lock = join(dir, '.install.lock');
      const order: string[] = [];
      await Promise.all(
        [1, 2, 3].map((i) =>
          withFileLock(lock, async () => {
            order.push(`in${i}`);
            await Bun.sleep(20);
            order.push(`out${i}`);
          }),
        ),
      );
      for (let i = 0; i < order.length; i += 2) expect(order[i]!.slice(2)).toBe(order[i + 1]!.slice(3));
      expect(existsSync(lock)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('breaks a lock whose holder is dead; waits for a live one and times out with a fix', async () => {
    const dir = tmp();
    try {
      const lock = join(dir, '.install.lock');
      const dead = Bun.spawnSync(['true']).pid;
      writeFileSync(lock, JSON.stringify({ pid: dead, host: hostname(), at: Date.now() }));
      expect(await withFileLock(lock, () => 'got it')).toBe('got it');
      writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() }));
      await expect(withFileLock(lock, () => 'never', { timeoutMs: 150 })).rejects.toMatchObject({
        code: 'lock-timeout',
      });
      expect(readFileSync(lock, 'utf8')).toContain(String(process.pid));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lockfile', () => {
  test('paths per scope; sorted atomic writes; the earlier client shape reads; garbage is a clear error', () => {
    const dir = tmp();
    try {
      expect(lockfilePath('user', '/p', { AVP_HOME: join(dir, 'h') })).toBe(join(dir, 'h', 'avp-lock.json'));
      expect(lockfilePath('project', '/p', {})).toBe('/p/.avp/avp-lock.json');
      const path = join(dir, 'avp-lock.json');
      expect(readLockfile(path).packages).toEqual({});
      const entry = (v: string) => ({
        version: v,
        resolved: 'u',
        integrity: 'sha512-x',
        installedAt: '2026-01-01T00:00:00Z',
        source: 'registry' as const,
      });
      writeLockfile(path, {
        version: '1.0.0',
        lockfileVersion: 1,
        packages: { zeta: entry('1.0.0'), alpha: entry('2.0.0') },
      });
      expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).packages)).toEqual(['alpha', 'zeta']);
      writeFileSync(
        path,
        JSON.stringify({
          version: '1.0.0',
          lockfileVersion: 1,
          packages: { old: { version: '1.0.0', resolved: 'u', integrity: 'i', installedAt: 't' } },
        }),
      );
      expect(readLockfile(path).packages.old!.version).toBe('1.0.0');
      writeFileSync(path, '{ nope');
      expect(() => readLockfile(path)).toThrow(/not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('http helpers', () => {
  test('error messages: error_description, then message, then the raw body; secrets masked', () => {
    expect(errorBodyMessage('{"error_description":"a","message":"b"}')).toBe('a');
    expect(errorBodyMessage('{"message":"b"}')).toBe('b');
    expect(errorBodyMessage('plain text')).toBe('plain text');
    expect(maskSecret('token abc123 bad', 'abc123')).toBe('token *** bad');
    // A hostile registry cannot drive the user's terminal.
    expect(errorBodyMessage(JSON.stringify({ message: '\u001b]52;c;ZXZpbA==\u0007\u001b[2Jgone' }))).toBe(
      ']52;c;ZXZpbA==[2Jgone',
    );
    expect(errorBodyMessage('raw \u001b[2J body')).toBe('raw [2J body');
    expect(cleanText('line one\n  line two\u001b[31m')).toBe('line one line two[31m');
  });
});
