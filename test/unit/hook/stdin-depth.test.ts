/**
 * The hook input's nesting bound, on both of its paths: below 2 MiB the parsed value is walked; above it the text is
 * scanned before parsing. Brackets inside strings — escaped quotes included — never count, on either path.
 */
import { describe, expect, test } from 'bun:test';
import { MAX_INPUT_DEPTH, parseInput } from '../../../src/hook/stdin.ts';

const BIG = 3 * 1024 * 1024;
const event = (extra: string) => `{"hook_event_name":"PreToolUse","tool_name":"Write",${extra}}`;
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('the hook input is refused when it nests deeper than the bound', () => {
  for (const [path, pad] of [
    ['parsed, then walked', ''],
    ['scanned before parsing', 'x'.repeat(BIG)],
  ] as const) {
    test(`${path}: one level over the bound is refused, the bound itself is not`, () => {
      // The event object is level 1 and "deep" holds the arrays: levels + 1 in all.
      const at = event(`"pad":"${pad}","deep":${nested(MAX_INPUT_DEPTH - 1)}`);
      const over = event(`"pad":"${pad}","deep":${nested(MAX_INPUT_DEPTH)}`);
      expect(() => parseInput(at)).not.toThrow();
      expect(() => parseInput(over)).toThrow(/nests deeper than 512 levels/);
    });

    test(`${path}: objects count like arrays`, () => {
      const objects = `${'{"a":'.repeat(MAX_INPUT_DEPTH)}1${'}'.repeat(MAX_INPUT_DEPTH)}`;
      expect(() => parseInput(event(`"pad":"${pad}","deep":${objects}`))).toThrow(/nests deeper/);
    });

    test(`${path}: brackets and escaped quotes inside strings never count`, () => {
      const content = JSON.stringify(`"${nested(100_000)}\\"[[[{{{\\\\" ${'['.repeat(70_000)}`);
      const value = parseInput(event(`"pad":"${pad}","tool_input":{"content":${content}}`)) as any;
      expect(value.tool_input.content.startsWith('"[[[')).toBe(true);
    });
  }

  test('above 2 MiB the scan refuses before the parser reads the rest (an unclosed bomb is "too deep", not "not JSON")', () => {
    const bomb = (pad: string) => `{"pad":"${pad}","deep":${'['.repeat(MAX_INPUT_DEPTH + 1)}`;
    expect(() => parseInput(bomb('x'.repeat(BIG)))).toThrow(/nests deeper than 512 levels/);
    expect(() => parseInput(bomb(''))).toThrow(/is not JSON/);
  });

  test('on the scanned path, brackets side by side never add up: thousands of small objects and arrays parse', () => {
    const siblings = `[${'{},[],'.repeat(5_000)}{}]`;
    const value = parseInput(event(`"pad":"${'x'.repeat(BIG)}","list":${siblings}`)) as { list: unknown[] };
    expect(value.list).toHaveLength(10_001);
  });

  test('on the scanned path, an unclosed bomb of objects is "too deep" too, not "not JSON"', () => {
    const bomb = `{"pad":"${'x'.repeat(BIG)}","deep":${'{"a":'.repeat(MAX_INPUT_DEPTH + 1)}`;
    expect(() => parseInput(bomb)).toThrow(/nests deeper than 512 levels/);
  });

  test('on the scanned path, strings are skipped whatever they hold: escaped quotes, a trailing backslash, brackets', () => {
    const open = '['.repeat(MAX_INPUT_DEPTH + 100);
    const fields = [
      `"a":${JSON.stringify(`say "hi" ${open}`)}`,
      `"b":${JSON.stringify('ends in a backslash \\')}`,
      `"c":${JSON.stringify(`${open} "quoted" {{{`)}`,
      `"d":${JSON.stringify(`\\"${open}`)}`,
    ];
    const value = parseInput(event(`"pad":"${'x'.repeat(BIG)}",${fields.join(',')}`)) as Record<string, string>;
    expect(value.a).toBe(`say "hi" ${open}`);
    expect(value.b).toBe('ends in a backslash \\');
    expect(value.d).toBe(`\\"${open}`);
  });

  test('text that is not JSON is still reported as not JSON on the scanned path', () => {
    expect(() => parseInput(event(`"pad":"${'x'.repeat(BIG)}`))).toThrow(/is not JSON/);
    expect(() => parseInput(event(`"pad":"${'x'.repeat(BIG)}\\"`))).toThrow(/is not JSON/);
  });
});
