/**
 * The current text of a file before a tool changes it (what an edit is applied to and a validator compares with):
 * missing is `null`, something that is no readable text file is `undefined`, and nothing the agent puts in the
 * file's place — a named pipe with no writer, a folder, a file past the size limit — holds the hook or is read.
 */
import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCurrent } from '../../../src/file-changes/complete-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'avp-read-current-'));

test('a file and a link to one: their text; nothing there, or a dangling link: null', () => {
  writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
  symlinkSync(join(dir, 'a.ts'), join(dir, 'link.ts'));
  symlinkSync(join(dir, 'nowhere.ts'), join(dir, 'dangling.ts'));
  expect(readCurrent(join(dir, 'a.ts'))).toBe('export const a = 1;\n');
  expect(readCurrent(join(dir, 'link.ts'))).toBe('export const a = 1;\n');
  expect(readCurrent(join(dir, 'missing.ts'))).toBeNull();
  expect(readCurrent(join(dir, 'dangling.ts'))).toBeNull();
  expect(readCurrent(join(dir, 'a.ts', 'below-a-file'))).toBeUndefined();
});

// A read that waited on the pipe would hold this test past its time limit: that is the failure.
test('a named pipe with no writer, a folder, a file over 2 MiB: undefined, at once', () => {
  const fifo = join(dir, 'pipe.ts');
  expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0);
  mkdirSync(join(dir, 'folder.ts'));
  writeFileSync(join(dir, 'big.ts'), Buffer.alloc(2 * 1024 * 1024 + 1, 97));
  for (const name of ['pipe.ts', 'folder.ts', 'big.ts'])
    expect({ name, text: readCurrent(join(dir, name)) }).toEqual({ name, text: undefined });
});
