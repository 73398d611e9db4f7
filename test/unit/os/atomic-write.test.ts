import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { tempPathFor, writeFileAtomic } from '../../../src/os/atomic-write.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'avp-atomic-'));

describe('writeFileAtomic', () => {
  test('replaces the file whole and leaves nothing else in the folder', () => {
    const d = dir();
    const path = join(d, 'a.json');
    writeFileSync(path, 'old');
    writeFileAtomic(path, 'new');
    writeFileAtomic(path, new TextEncoder().encode('bytes'));
    expect(readFileSync(path, 'utf8')).toBe('bytes');
    expect(readdirSync(d)).toEqual(['a.json']);
  });

  test.skipIf(process.platform === 'win32')('exactMode sets the mode whatever the umask (POSIX modes)', () => {
    const d = dir();
    const old = process.umask(0o077);
    try {
      writeFileAtomic(join(d, 'hook'), '#!/bin/sh\n', { mode: 0o755, exactMode: true });
      writeFileAtomic(join(d, 'narrowed'), 'x', { mode: 0o644 });
    } finally {
      process.umask(old);
    }
    expect(statSync(join(d, 'hook')).mode & 0o777).toBe(0o755);
    expect(statSync(join(d, 'narrowed')).mode & 0o777).toBe(0o600);
  });

  test('a failed rename leaves no temp file behind and throws', () => {
    const d = dir();
    mkdirSync(join(d, 'taken'));
    writeFileSync(join(d, 'taken', 'x'), 'a folder that is not empty cannot be renamed over');
    expect(() => writeFileAtomic(join(d, 'taken'), 'text')).toThrow();
    expect(readdirSync(d)).toEqual(['taken']);
  });

  test('temp names are unique within a process, end in .tmp, and can be hidden', () => {
    const a = tempPathFor('/x/y/report.html');
    const b = tempPathFor('/x/y/report.html');
    expect(a).not.toBe(b);
    expect(a.endsWith('.tmp')).toBe(true);
    expect(basename(a).startsWith('report.html.')).toBe(true);
    expect(basename(tempPathFor('/x/y/k.json', true)).startsWith('.k.json.')).toBe(true);
  });
});
