/**
 * Every way the hook input is refused is bad input (code `hook-input`, which the hook answers as the agent's refusal of
 * a bad call, never as avp's own failure), and says what went wrong and what to do.
 */
import { describe, expect, test } from 'bun:test';
import { AvpError } from '../../../src/errors.ts';
import { inputTimedOut, inputTooLarge, inputUnreadable, MAX_INPUT_DEPTH, parseInput } from '../../../src/hook/input.ts';

function refusal(text: string): AvpError {
  try {
    parseInput(text);
  } catch (e) {
    if (e instanceof AvpError) return e;
    throw e;
  }
  throw new Error(`parsed: ${text}`);
}

describe('the hook input refused', () => {
  test('by its size, its read or its time limit: bad input, with the fix', () => {
    for (const e of [inputTooLarge(8 * 1024 * 1024), inputUnreadable('EISDIR'), inputTimedOut(10_000)]) {
      expect(e.code).toBe('hook-input');
      expect(e.fix).toBeTruthy();
    }
    expect(inputTooLarge(8 * 1024 * 1024).message).toBe('the hook input is larger than 8 MiB');
    expect(inputUnreadable('EISDIR').message).toBe('could not read the hook input: EISDIR');
  });

  test('as too deep, not JSON or empty: bad input, the fix said', () => {
    const deep = refusal(`{"a":${'['.repeat(MAX_INPUT_DEPTH)}${']'.repeat(MAX_INPUT_DEPTH)}}`);
    expect([deep.code, deep.message]).toEqual(['hook-input', 'the hook input nests deeper than 512 levels']);
    expect(deep.fix).toBe('this is not a hook event from an agent; real events nest a few levels');
    const bad = refusal('  {"hook_event_name": Stop}');
    expect(bad.code).toBe('hook-input');
    // What the parser said, without its class name, then the input as it came (trimmed).
    expect(bad.message).toStartWith('the hook input is not JSON (');
    expect(bad.message).not.toContain('SyntaxError');
    expect(bad.message).toEndWith(': "{\\"hook_event_name\\": Stop}"');
    expect(refusal(' \n ').message).toBe('no hook input: stdin was empty');
  });
});
