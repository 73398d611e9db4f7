import { describe, expect, test } from 'bun:test';
import { closest, didYouMean, editDistance } from '../../src/did-you-mean.ts';

describe('did-you-mean', () => {
  test('typos of one edit per three characters find their target', () => {
    expect(closest('--stagged', ['--staged', '--diff', '--json'])).toBe('--staged');
    expect(closest('--locl', ['--local', '--project', '--user'])).toBe('--local');
    expect(closest('disabledValidator', ['disabled', 'disabledValidators'])).toBe('disabledValidators');
    expect(closest('no-secret', ['no-secrets', 'sql-injection'])).toBe('no-secrets');
  });

  test('case, dashes and underscores do not count; swapped neighbours cost one edit', () => {
    expect(closest('PostTooluse', ['PreToolUse', 'PostToolUse'])).toBe('PostToolUse');
    expect(closest('post_tool_use', ['PreToolUse', 'PostToolUse'])).toBe('PostToolUse');
    expect(editDistance('chekc', 'check')).toBe(1);
  });

  test('a unique prefix is enough; nothing close means no suggestion, and never the input itself', () => {
    expect(closest('--dry', ['--dry-run', '--json'])).toBe('--dry-run');
    expect(closest('--verbose', ['--help', '--version'])).toBeUndefined();
    expect(closest('x', ['check', 'lint'])).toBeUndefined();
    expect(closest('check', ['check'])).toBeUndefined();
    expect(didYouMean('lsit', ['list', 'lint'])).toMatch(/^ \(did you mean li[sn]t\?\)$/);
    expect(didYouMean('zzz', ['list'])).toBe('');
  });
});
