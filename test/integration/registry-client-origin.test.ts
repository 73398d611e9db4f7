/**
 * `avp add` installs what was asked for: a registry package named like a catalog validator comes from the registry;
 * avp's embedded catalog stands in only when the registry cannot serve the name (and says so), never replaces a
 * package whose integrity the lockfile knows, and is asked for on purpose with `catalog:NAME`. Driven through
 * `dist/avp` against a loopback registry (test/support/hostile-registry.ts, honest mode).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHostileRegistry, type HostileRegistry } from '../support/hostile-registry.ts';
import { validatorZip } from '../unit/registry-client/zip-forge.ts';
import { installedState, leftovers, lock, sandbox, sandboxWithConfiguredRegistry } from './registry-client-helpers.ts';

/** code-quality is a catalog validator at 1.0.0; the registry's package of that name is another RuleSet. */
const NAME = 'code-quality';
const registryZip = (v: string) =>
  validatorZip(NAME, [[`${NAME}/rules/registry-only.md`, '---\nname: registry-only\n---\nFrom the registry.\n']], v);
/** Nothing listens on port 9 (discard) on loopback: connection refused, the registry "cannot be reached". */
const DOWN = 'http://127.0.0.1:9';

let reg: HostileRegistry;

beforeAll(async () => {
  reg = await startHostileRegistry();
  reg.serve(NAME, { version: '1.0.0', bytes: registryZip('1.0.0') });
  reg.serve('other-only', { version: '2.0.0', bytes: validatorZip('other-only', [], '2.0.0') });
});

afterAll(() => reg.close());

const installedMd = (dir: string) => readFileSync(join(dir, NAME, 'VALIDATOR.md'), 'utf8');

describe('a registry package named like a catalog validator', () => {
  test('`avp add code-quality` and `@1.0.0` install the registry package, not the embedded copy', async () => {
    for (const spec of [NAME, `${NAME}@1.0.0`]) {
      const sb = sandbox(reg.url);
      const before = reg.requests.length;
      const r = await sb.avp(['add', spec, '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ name: NAME, version: '1.0.0', source: 'registry' });
      expect(JSON.parse(r.stdout).fallback).toBeUndefined();
      expect(installedMd(sb.userValidators)).toContain('A demo validator.');
      expect(existsSync(join(sb.userValidators, NAME, 'rules', 'registry-only.md'))).toBe(true);
      expect(lock(sb.userLock).packages[NAME]).toMatchObject({
        source: 'registry',
        resolved: `${reg.url}/api/packages/${NAME}/1.0.0/download`,
      });
      expect(reg.requests.slice(before).map((q) => q.path)).toContain(`/api/packages/${NAME}/1.0.0/download`);
    }
  });

  test('`catalog:code-quality` asks for the embedded copy on purpose: no registry request, no fallback mark', async () => {
    const sb = sandbox(reg.url);
    const before = reg.requests.length;
    const r = await sb.avp(['add', `catalog:${NAME}`, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ source: 'catalog', resolved: `catalog:${NAME}@1.0.0` });
    expect(installedMd(sb.userValidators)).not.toContain('A demo validator.');
    const entry = lock(sb.userLock).packages[NAME] as Record<string, unknown>;
    expect(entry).toMatchObject({ source: 'catalog', requested: 'latest' });
    expect(entry.fallbackFrom).toBeUndefined();
    // update stays with the recorded source (the catalog), it never turns into the registry's package.
    const u = await sb.avp(['update', NAME, '--json']);
    expect(u.code).toBe(0);
    expect(JSON.parse(u.stdout)).toMatchObject([{ name: NAME, status: 'current' }]);
    // outdated compares it with this avp's catalog, not with the registry's package of that name.
    const lf = JSON.parse(readFileSync(sb.userLock, 'utf8'));
    lf.packages[NAME].version = '0.9.0';
    writeFileSync(sb.userLock, JSON.stringify(lf));
    const o = await sb.avp(['outdated', '--json']);
    expect(o.code).toBe(0);
    expect(JSON.parse(o.stdout)).toEqual([
      { name: NAME, scope: 'user', current: '0.9.0', wanted: '1.0.0', latest: '1.0.0', source: 'catalog' },
    ]);
    expect(reg.requests.length).toBe(before);
    const bad = await sb.avp(['add', `catalog:${NAME}@^9`]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`catalog:${NAME}@^9 is not in avp's embedded catalog: it has ${NAME}@1.0.0`);
    const unknown = await sb.avp(['add', 'catalog:not-a-catalog-name']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('avp list --available');
  });

  test('a version the registry lacks is an error, not the catalog copy of that version', async () => {
    const own = await startHostileRegistry();
    try {
      own.serve(NAME, { version: '2.0.0', bytes: registryZip('2.0.0') });
      const sb = sandbox(own.url);
      const r = await sb.avp(['add', `${NAME}@1.0.0`]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`has ${NAME}, but not version 1.0.0`);
      expect(r.stderr).toContain(`catalog:${NAME}`);
      expect(existsSync(join(sb.userValidators, NAME))).toBe(false);
      expect(existsSync(sb.userLock)).toBe(false);
    } finally {
      await own.close();
    }
  });
});

describe('the catalog as a fallback', () => {
  test('configured registry unreachable: the catalog copy, said on stderr, with a fallback mark in the lockfile', async () => {
    const sb = sandboxWithConfiguredRegistry(DOWN);
    const r = await sb.avp(['add', NAME, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ source: 'catalog', fallback: { registry: DOWN } });
    expect(r.stderr).toContain(`could not reach ${DOWN}/api/packages/${NAME}/latest`);
    expect(r.stderr).toContain("from avp's embedded catalog instead of the registry's package");
    expect(lock(sb.userLock).packages[NAME]).toMatchObject({ source: 'catalog', fallbackFrom: DOWN });
    expect(installedMd(sb.userValidators)).not.toContain('A demo validator.');

    // Once the registry answers, update installs what was asked for in the first place.
    const u = await sb.avp(['update', NAME, '--registry', reg.url, '--json']);
    expect(u.code).toBe(0);
    expect(JSON.parse(u.stdout)).toMatchObject([{ name: NAME, status: 'updated' }]);
    expect(lock(sb.userLock).packages[NAME]).toMatchObject({ source: 'registry', requested: 'latest' });
    expect((lock(sb.userLock).packages[NAME] as Record<string, unknown>).fallbackFrom).toBeUndefined();
    expect(installedMd(sb.userValidators)).toContain('A demo validator.');
  });

  test('a registry that has no package of that name: the catalog copy, said on stderr', async () => {
    const own = await startHostileRegistry();
    try {
      const sb = sandbox(own.url);
      const r = await sb.avp(['add', 'no-secrets', '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ source: 'catalog' });
      expect(r.stderr).toContain(`${own.url} has no package named no-secrets: installed no-secrets@`);
    } finally {
      await own.close();
    }
  });

  test('a pinned version whose integrity the lockfile knows is never replaced by the catalog copy', async () => {
    const own = await startHostileRegistry();
    own.serve(NAME, { version: '1.0.0', bytes: registryZip('1.0.0') });
    const sb = sandboxWithConfiguredRegistry(own.url);
    expect((await sb.avp(['add', `${NAME}@1.0.0`, '--project'])).code).toBe(0);
    expect((await sb.avp(['add', `${NAME}@1.0.0`])).code).toBe(0);
    await own.close(); // from now on the registry cannot be reached
    const projectAvp = join(sb.project, '.avp');
    const userBefore = installedState(sb.avpHome);
    const projectBefore = installedState(projectAvp);

    for (const spec of [`${NAME}@1.0.0`, NAME]) {
      const r = await sb.avp(['add', spec]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`could not reach ${own.url}`);
      expect(r.stderr).toContain(`${NAME}@1.0.0 is installed from registry`);
      expect(r.stderr).toContain(`avp add catalog:${NAME}`);
    }
    const u = await sb.avp(['update', '--json']);
    expect(u.code).toBe(0);
    expect(JSON.parse(u.stdout)).toMatchObject([{ name: NAME, status: 'skipped' }]);
    expect(installedState(sb.avpHome)).toEqual(userBefore);
    expect(leftovers(sb.avpHome)).toEqual([]);

    // install --frozen reproduces from the recorded source only: with the registry gone it fails, no stand-in.
    rmSync(join(projectAvp, 'validators'), { recursive: true });
    const f = await sb.avp(['install', '--frozen']);
    expect(f.code).toBe(1);
    expect(f.stderr).toContain('could not reach');
    expect(existsSync(join(projectAvp, 'validators', NAME))).toBe(false);
    expect(readFileSync(sb.projectLock, 'utf8')).toBe(projectBefore['avp-lock.json']!);

    // Asking for the catalog copy on purpose is allowed, and says what it replaced.
    const c = await sb.avp(['add', `catalog:${NAME}`, '--json']);
    expect(c.code).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({ source: 'catalog', replaced: '1.0.0' });
  });
});
