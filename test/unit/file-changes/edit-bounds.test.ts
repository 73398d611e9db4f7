import { describe, expect, test } from 'bun:test';
import { applyEditsBounded, EDIT_BOUNDS } from '../../../src/file-changes/diff.ts';

const doubling = (n: number) =>
  Array.from({ length: n }, () => ({ old_string: 'a', new_string: 'aa', replace_all: true }));

describe('rebuilding an edited file is bounded', () => {
  test('ordinary edits rebuild exactly', () => {
    expect(applyEditsBounded('a a c\nac\n', [{ old_string: 'a', new_string: 'b', replace_all: true }])).toEqual({
      text: 'b b c\nbc\n',
    });
    expect(applyEditsBounded('x', [{ old_string: 'y', new_string: 'z' }])).toEqual({ missing: true });
  });

  test('a doubling replace_all chain stops at the size bound, before building the oversized step', () => {
    const r = applyEditsBounded('a'.repeat(64), doubling(40));
    expect(r).toEqual({ tooLarge: expect.stringContaining(`over ${EDIT_BOUNDS.maxChars} characters`) });
    // 64 · 2^17 = 8 Mi: edit 18 is the first that would pass the bound.
    expect((r as { tooLarge: string }).tooLarge).toContain('edit 18 of 40');
  });

  test('many edits on a large text stop at the work bound', () => {
    const edits = Array.from({ length: 100 }, (_, i) => ({ old_string: `k${i % 2}`, new_string: `k${(i + 1) % 2}` }));
    const r = applyEditsBounded(`k0${'x'.repeat(1 << 20)}`, edits, { maxChars: 1 << 22, maxWork: 1 << 24 });
    expect(r).toEqual({ tooLarge: expect.stringContaining('characters of work') });
  });

  test('a passed deadline stops the rebuild', () => {
    const r = applyEditsBounded('abc', [{ old_string: 'a', new_string: 'b' }], {
      ...EDIT_BOUNDS,
      deadline: Date.now() - 1,
    });
    expect(r).toEqual({ tooLarge: expect.stringContaining('ran out of time') });
  });
});
