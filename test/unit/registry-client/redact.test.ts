/** URL passwords never reach output; answers of the wrong shape get one clear error. */
import { describe, expect, test } from 'bun:test';
import { redactUserinfo } from '../../../src/redact.ts';
import { answers } from '../../../src/registry-client/answers.ts';

describe('redactUserinfo', () => {
  test.each([
    ['GET https://alice:pw@reg.example/api failed', 'GET https://***@reg.example/api failed'],
    ['http://token@127.0.0.1:9/x and https://u:p@h/y', 'http://***@127.0.0.1:9/x and https://***@h/y'],
    ['"registry": "https://a:b%40c@h"', '"registry": "https://***@h"'],
    ['mail dev@example.com, git@github.com:o/r.git', 'mail dev@example.com, git@github.com:o/r.git'],
    ['https://reg.example/a@b (an @ in the path)', 'https://reg.example/a@b (an @ in the path)'],
  ])('%s', (input, out) => expect(redactUserinfo(input)).toBe(out));
});

describe('answers', () => {
  const what = 'GET https://r/api/packages/x/latest';
  test('a version with the fields avp reads passes; optional ones may be null or missing', () => {
    const v = { name: 'x', version: '1.0.0', downloadUrl: 'https://r/d', integrity: null, extra: [1] };
    expect(answers.version(what, v)).toBe(v as never);
  });
  test.each([
    [null, /the answer: expected an object, got null/],
    [[], /expected an object, got a list/],
    [{ name: 'x', version: 1, downloadUrl: 'u' }, /version: expected a string, got number/],
    [{ name: 'x', version: '1', downloadUrl: 'u', size: '12' }, /size: expected a number, got string/],
  ])('%p is refused by field', (v, message) => {
    expect(() => answers.version(what, v)).toThrow(message);
    expect(() => answers.version(what, v)).toThrow(/GET https:\/\/r\/api\/packages\/x\/latest answered something/);
  });
  test('search fills display defaults and checks every item', () => {
    expect(answers.search(what, { packages: [{ name: 'a' }] }).packages[0]).toMatchObject({
      name: 'a',
      downloads: 0,
      description: '',
      author: '',
      latest: '',
      tags: [],
    });
    expect(() => answers.search(what, { packages: [{ name: 'a', tags: ['t', 3] }] })).toThrow(
      /packages\[0\]\.tags: expected a list of strings/,
    );
  });
  test('updates: missing is none, a non-list is refused', () => {
    expect(answers.updates(what, {})).toEqual([]);
    expect(() => answers.updates(what, { updates: 'x' })).toThrow(/updates: expected a list, got string/);
  });
});
