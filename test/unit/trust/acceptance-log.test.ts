/**
 * The acceptance log's line lookup (what the record check of every hook call reads): the line that starts at a record's
 * offset, and nothing for an offset that is not the start of a whole acceptance line.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entryAt, LOG_NAME, type AcceptanceEntry } from '../../../src/trust/acceptance-log.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function entry(record: string, files = 1): AcceptanceEntry {
  return {
    at: '2026-11-26T18:00:00.000Z',
    scope: 'project',
    base: '/p',
    by: 'avp accept',
    changes: Array.from({ length: files }, (_, i) => ({ key: `.avp/validators/v${i}/VALIDATOR.md`, change: 'added' })),
    record: record,
    origin: { pid: 1, ppid: 1 },
  };
}

/** A log of `lines` (each followed by a line break unless `open`), and each line's offset. */
function log(lines: string[], open = false): { dir: string; offsets: number[] } {
  const dir = mkdtempSync(join(tmpdir(), 'avp-log-'));
  dirs.push(dir);
  const offsets: number[] = [];
  let text = '';
  for (const l of lines) {
    offsets.push(Buffer.byteLength(text));
    text += l + '\n';
  }
  writeFileSync(join(dir, LOG_NAME), open ? text.slice(0, -1) : text);
  return { dir, offsets };
}

describe('entryAt', () => {
  test('finds each line by its offset, short and long (a line far over one read chunk, non-ASCII keys)', () => {
    const big = entry('b'.repeat(64), 3000);
    big.changes[2999]!.key = '.avp/validators/ünïcødé/VALIDATOR.md';
    const lines = [entry('a'.repeat(64)), big, entry('c'.repeat(64))].map((e) => JSON.stringify(e));
    expect(lines[1]!.length).toBeGreaterThan(100 * 1024);
    const { dir, offsets } = log(lines);
    expect(entryAt(dir, offsets[0]!)?.record).toBe('a'.repeat(64));
    const found = entryAt(dir, offsets[1]!);
    expect(found?.record).toBe('b'.repeat(64));
    expect(found?.changes[2999]?.key).toBe('.avp/validators/ünïcødé/VALIDATOR.md');
    expect(entryAt(dir, offsets[2]!)?.record).toBe('c'.repeat(64));
  });

  test('an offset inside a line, past the end, or on a line without its line break finds nothing', () => {
    const lines = [entry('a'.repeat(64)), entry('b'.repeat(64))].map((e) => JSON.stringify(e));
    const { dir, offsets } = log(lines, true);
    expect(entryAt(dir, offsets[0]! + 1)).toBeUndefined();
    expect(entryAt(dir, offsets[1]! - 1)).toBeUndefined();
    expect(entryAt(dir, offsets[1]!)).toBeUndefined(); // the last line is not finished
    expect(entryAt(dir, 10 * 1024 * 1024)).toBeUndefined();
    expect(entryAt(join(dir, 'none'), 0)).toBeUndefined();
  });

  test('a line longer than 256 KiB is not read whole, so it is no acceptance', () => {
    const huge = entry('h'.repeat(64), 8000);
    const lines = [JSON.stringify(entry('a'.repeat(64))), JSON.stringify(huge)];
    expect(lines[1]!.length).toBeGreaterThan(256 * 1024);
    const { dir, offsets } = log(lines);
    expect(entryAt(dir, offsets[1]!)).toBeUndefined();
    expect(entryAt(dir, offsets[0]!)?.record).toBe('a'.repeat(64));
  });
});
