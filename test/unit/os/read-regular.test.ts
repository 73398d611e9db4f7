/**
 * The read of a file someone else may have put there: a regular file (or a link to one) is read whole; a named pipe,
 * a device or a folder is refused at once — a pipe with no writer would otherwise hold the reading hook forever.
 */
import { describe, expect, test } from 'bun:test';
import { closeSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotARegularFile, openRegularFile, readRegularFile, readRegularText } from '../../../src/os/read-regular.ts';

const dir = mkdtempSync(join(tmpdir(), 'avp-read-regular-'));

describe('readRegularFile', () => {
  test('a regular file, empty or not, and a link to one are read whole', () => {
    writeFileSync(join(dir, 'a.md'), 'héllo\n');
    writeFileSync(join(dir, 'empty'), '');
    symlinkSync(join(dir, 'a.md'), join(dir, 'link.md'));
    expect(readRegularText(join(dir, 'a.md'))).toBe('héllo\n');
    expect(readRegularText(join(dir, 'link.md'))).toBe('héllo\n');
    expect(readRegularFile(join(dir, 'empty')).length).toBe(0);
  });

  test('a large file comes back byte for byte', () => {
    const big = Buffer.alloc(300_000, 7);
    big[299_999] = 9;
    writeFileSync(join(dir, 'big'), big);
    expect(readRegularFile(join(dir, 'big')).equals(big)).toBe(true);
  });

  test("a link in the file's place is refused when asked, followed otherwise", () => {
    symlinkSync(join(dir, 'a.md'), join(dir, 'link2.md'));
    expect(() => openRegularFile(join(dir, 'link2.md'), { noFollow: true })).toThrow(
      expect.objectContaining({ code: 'ELOOP' }),
    );
    const { fd, stat } = openRegularFile(join(dir, 'link2.md'));
    expect(stat.isFile()).toBe(true);
    closeSync(fd);
  });

  test('a named pipe with no writer is refused at once, not waited on', () => {
    const fifo = join(dir, 'VALIDATOR.md');
    expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0);
    const started = performance.now();
    expect(() => readRegularFile(fifo)).toThrow(NotARegularFile);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  test('a device and a folder are refused; a missing file throws as readFileSync does', () => {
    expect(() => readRegularFile('/dev/zero')).toThrow(NotARegularFile);
    mkdirSync(join(dir, 'folder'));
    expect(() => readRegularFile(join(dir, 'folder'))).toThrow(NotARegularFile);
    expect(() => readRegularFile(join(dir, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    // Caught and then checked, so a read that threw nothing fails here too.
    let thrown: unknown;
    try {
      readRegularFile('/dev/zero');
    } catch (e) {
      thrown = e;
    }
    expect((thrown as NotARegularFile).code).toBe('ENOTREG');
    expect((thrown as Error).message).toContain('/dev/zero is not a regular file');
  });

  // A file whose size says 0 but which holds text (Linux's /proc): read to its end, past the size it started from.
  test.if(process.platform === 'linux')('a file longer than its stated size is read to its end', () => {
    const text = readRegularText('/proc/self/status');
    expect(text).toContain('Name:');
    expect(text.length).toBeGreaterThan(500);
  });
});
