import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { withLock, withLockSync } from '../../../src/os/dir-lock.ts';
import { tempProject } from '../session/helpers.ts';

describe('mkdir lock', () => {
  test('serializes holders and is released after an error', async () => {
    const dir = tempProject();
    const order: string[] = [];
    const hold = (name: string) =>
      withLock(dir, 'x', async () => {
        order.push(`${name}+`);
        await Bun.sleep(20);
        order.push(`${name}-`);
      });
    await Promise.all([hold('a'), hold('b')]);
    expect(order.join(' ')).toMatch(/^(a\+ a- b\+ b-|b\+ b- a\+ a-)$/);
    await expect(
      withLock(dir, 'x', () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(join(dir, 'x.lock'))).toBe(false);
  });

  test('a lock left by a killed process is broken once stale', async () => {
    const dir = tempProject();
    mkdirSync(join(dir, 'x.lock'));
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'x.lock'), old, old);
    const started = Date.now();
    // A long wait, so that only breaking the stale lock (not waiting it out) can finish within the bound.
    expect(await withLock(dir, 'x', () => 42, { waitMs: 60_000 })).toBe(42);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('a fresh lock whose holder never releases it is taken over after the wait limit', async () => {
    const dir = tempProject();
    mkdirSync(join(dir, 'x.lock'));
    expect(await withLock(dir, 'x', () => 'mine', { waitMs: 100 })).toBe('mine');
  });
});

describe('mkdir lock, waiting synchronously (the trust record)', () => {
  test('a fresh lock held past the wait limit fails with the caller error; a stale one is broken', () => {
    const dir = tempProject();
    const path = join(dir, 'y.lock');
    mkdirSync(path);
    expect(() =>
      withLockSync(path, () => 'never', { waitMs: 50, onTimeout: () => new Error('held by another avp') }),
    ).toThrow('held by another avp');
    expect(existsSync(path)).toBe(true);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    expect(withLockSync(path, () => 7, { waitMs: 60_000, onTimeout: () => new Error('not broken') })).toBe(7);
    expect(existsSync(path)).toBe(false);
  });
});
