/**
 * The accepted-state fingerprint: what an edit cannot keep (ctime, inode), the 2 s window in which a stat proves
 * nothing, and records written before the inode was part of it.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'bun:test';
import { snapshotListing } from '../../../src/validator/listing.ts';
import { digest, sameFingerprint, statFingerprint } from '../../../src/trust/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'avp-fp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const OLD = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

describe('statFingerprint', () => {
  test('size, mtime, ctime and inode; missing is -; fresh files are racy (never equal to a recorded one)', () => {
    const f = join(dir, 'a.md');
    writeFileSync(f, 'abc');
    const s = statSync(f);
    expect(statFingerprint(f)).toBe(`racy:3:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`);
    expect(statFingerprint(join(dir, 'missing'))).toBe('-');
  });

  test('a snapshot answers with the stat it took first', () => {
    const f = join(dir, 'b.md');
    writeFileSync(f, 'one');
    const snap = snapshotListing();
    const first = statFingerprint(f, snap);
    writeFileSync(f, 'three');
    expect(statFingerprint(f, snap)).toBe(first);
    expect(statFingerprint(f)).not.toBe(first);
  });

  test('a twin moved over a file has another inode even with the same size and mtime', () => {
    const f = join(dir, 'c.md');
    const twin = join(dir, 'twin.md');
    writeFileSync(f, 'same');
    writeFileSync(twin, 'SAME');
    utimesSync(f, OLD, OLD);
    utimesSync(twin, OLD, OLD);
    const before = statSync(f);
    renameSync(twin, f);
    const after = statSync(f);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect(after.ino).not.toBe(before.ino);
  });
});

describe('sameFingerprint', () => {
  test('equal, or a record from before the inode was added compared without it; never a racy one', () => {
    expect(sameFingerprint('3:10:20:99', '3:10:20:99')).toBe(true);
    expect(sameFingerprint('3:10:20:99', '3:10:20:98')).toBe(false);
    expect(sameFingerprint('3:10:20:99', '3:10:20')).toBe(true);
    expect(sameFingerprint('3:10:21:99', '3:10:20')).toBe(false);
    expect(sameFingerprint('racy:3:10:20:99', '3:10:20')).toBe(false);
    expect(sameFingerprint('-', '3:10:20')).toBe(false);
    // Recorded and looked at in the same timestamp tick: an edit in that tick keeps the stat, so it is hashed.
    expect(sameFingerprint('racy:3:10:20:99', 'racy:3:10:20:99')).toBe(false);
  });
});

describe('digest', () => {
  test('a pipe put where a control file was reads as gone, at once: the hook is never held by a writer that never comes', () => {
    const fifo = join(dir, 'VALIDATOR.md');
    expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0);
    const started = performance.now();
    expect(digest({ key: 'v', path: fifo, kind: 'file', copy: true })).toBe('-');
    expect(digest({ key: 'e', path: fifo, kind: 'env', copy: false })).toBe('-');
    expect(performance.now() - started).toBeLessThan(5_000);
    const file = join(dir, 'c.md');
    writeFileSync(file, 'x');
    expect(digest({ key: 'c', path: file, kind: 'file', copy: true })).toBe(
      new Bun.CryptoHasher('sha256').update('x').digest('hex'),
    );
  });
});
