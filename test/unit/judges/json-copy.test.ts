/**
 * The event an in-process catalog script gets is the one a script process would parse from stdin (a JSON round
 * trip), built without serializing its strings again: same value, and the script's copy is its own.
 */
import { describe, expect, test } from 'bun:test';
import { lazyProperty } from '../../../src/file-changes/lazy.ts';
import { jsonCopy } from '../../../src/judges/builtin-script.ts';

const roundTrip = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('jsonCopy', () => {
  test('gives what a JSON round trip gives, for every shape JSON treats specially', () => {
    const event = {
      kept: 'text',
      gone: undefined,
      fn: () => 1,
      sym: Symbol('s'),
      list: [1, undefined, () => 2, Symbol('t'), NaN, -Infinity, 'x', null],
      when: new Date(0),
      nested: { deep: [{ a: 1, b: undefined }], big: Infinity },
      boxed: [new String('s'), new Number(2), new Boolean(false)],
      bytes: Buffer.from('ab'),
      custom: { toJSON: () => ({ replaced: true }) },
    };
    expect(jsonCopy(event)).toEqual(roundTrip(event));
    expect(JSON.stringify(jsonCopy(event))).toBe(JSON.stringify(event));
    for (const v of ['s', 0, null, true, [undefined], [[]], {}]) expect(jsonCopy(v)).toEqual(roundTrip(v));
  });

  test("the copy is the script's own: changing it leaves the event alone", () => {
    const event = { files: [{ path: 'a.ts', after: 'x'.repeat(1000) }], toolInput: { content: 'y' } };
    const copy = jsonCopy(event) as typeof event;
    copy.files[0]!.path = 'changed';
    copy.files.push({ path: 'b', after: '' });
    copy.toolInput.content = 'z';
    expect(event).toEqual({ files: [{ path: 'a.ts', after: 'x'.repeat(1000) }], toolInput: { content: 'y' } });
  });

  test('refuses what JSON refuses (BigInt, cycles)', () => {
    expect(() => jsonCopy({ n: 1n })).toThrow();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonCopy(cyclic)).toThrow();
  });
});

describe("jsonCopy of a property built when read (a created file's diff)", () => {
  test('stays unbuilt in the copy until the script reads it, then reads as the original', () => {
    let built = 0;
    const change: Record<string, unknown> = { path: 'a.ts' };
    lazyProperty(change, 'diff', () => {
      built++;
      return '+x\n';
    });
    const event = { files: [change] };
    const copy = jsonCopy(event) as { files: Array<Record<string, unknown>> };
    expect(built).toBe(0);
    expect(copy.files[0]!.diff).toBe('+x\n');
    expect(built).toBe(1);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(event));
    copy.files[0]!.diff = 'mine';
    expect(change.diff).toBe('+x\n');
  });
});
