import { describe, expect, test } from 'bun:test';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig } from '../../../src/config/config.ts';
import { AvpError } from '../../../src/errors.ts';
import { detectBackend } from '../../../src/judges/detect.ts';
import { limited } from '../../../src/judges/limiter.ts';
import { retryAfterMs } from '../../../src/judges/http-retry.ts';
import { tempDir } from '../../support/run-avp.ts';

const withClaude = () => {
  const dir = tempDir('avp-bin-');
  writeFileSync(join(dir, 'claude'), '#!/bin/sh\necho hi\n');
  chmodSync(join(dir, 'claude'), 0o755);
  return dir;
};

describe('auto-detection', () => {
  const config = defaultConfig();
  test('claude on PATH first, then ANTHROPIC_API_KEY, then OPENAI_*', () => {
    const bin = withClaude();
    expect(detectBackend(config, { PATH: bin, ANTHROPIC_API_KEY: 'k' })).toMatchObject({
      backend: 'claude',
      bin: join(bin, 'claude'),
    });
    expect(detectBackend(config, { PATH: '/nonexistent', ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'o' }).backend).toBe(
      'anthropic',
    );
    expect(detectBackend(config, { PATH: '/nonexistent', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }).reason).toContain(
      'OPENAI_BASE_URL',
    );
    expect(detectBackend(config, { PATH: '/nonexistent', OPENAI_API_KEY: 'o' }).backend).toBe('openai');
  });

  test('a non-executable claude file is not a CLI', () => {
    const dir = tempDir('avp-bin-');
    writeFileSync(join(dir, 'claude'), 'not executable');
    expect(() => detectBackend(config, { PATH: dir })).toThrow(AvpError);
  });

  test('nothing configured: judge-unconfigured says how to configure one', () => {
    try {
      detectBackend(config, { PATH: '/nonexistent' });
      throw new Error('no error');
    } catch (e) {
      expect((e as AvpError).code).toBe('judge-unconfigured');
      expect((e as AvpError).fix).toContain('ANTHROPIC_API_KEY');
      expect((e as AvpError).fix).toContain('OPENAI_BASE_URL');
      expect((e as AvpError).fix).toContain('@anthropic-ai/claude-code');
    }
  });

  test('explicit backend and per-validator routing win over detection', () => {
    const bin = withClaude();
    const c = {
      ...config,
      judge: { ...config.judge, backend: 'openai' as const, validators: { 'no-secrets': 'anthropic' as const } },
    };
    expect(detectBackend(c, { PATH: bin }).backend).toBe('openai');
    expect(
      detectBackend(c, { PATH: bin, ANTHROPIC_API_KEY: 'k' }, { id: 'no-secrets', name: 'no-secrets' }).backend,
    ).toBe('anthropic');
    expect(() => detectBackend(c, { PATH: bin }, { id: 'no-secrets', name: 'no-secrets' })).toThrow(
      /ANTHROPIC_API_KEY is not set/,
    );
    const claudeOnly = { ...config, judge: { ...config.judge, backend: 'claude' as const } };
    expect(() => detectBackend(claudeOnly, { PATH: '/nonexistent' })).toThrow(/not on PATH/);
  });
});

describe('concurrency limiter', () => {
  test('never more than max at once, FIFO, aborted waiters leave the queue', async () => {
    let active = 0;
    let peak = 0;
    const task = async () => {
      active++;
      peak = Math.max(peak, active);
      await Bun.sleep(20);
      active--;
    };
    const signal = new AbortController().signal;
    await Promise.all(Array.from({ length: 9 }, () => limited('t1', 3, signal, task)));
    expect(peak).toBe(3);
    const ac = new AbortController();
    const blocker = limited('t2', 1, signal, () => Bun.sleep(100));
    const waiter = limited('t2', 1, ac.signal, async () => 'ran');
    ac.abort();
    await expect(waiter).rejects.toThrow(/free t2 judge slot/);
    await blocker;
    expect(await limited('t2', 1, signal, async () => 'next')).toBe('next');
  });
});

describe('retry-after', () => {
  test('seconds, ms and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '2' }))).toBe(150);
    const d = retryAfterMs(new Headers({ 'retry-after': new Date(Date.now() + 3000).toUTCString() }))!;
    expect(d).toBeGreaterThan(1000);
    expect(d).toBeLessThanOrEqual(3000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});

describe('claude sub-agent environment', () => {
  test('host session markers removed, validator identity and the recursion guard added', async () => {
    const { subagentEnv } = await import('../../../src/judges/claude.ts');
    const { makeValidator } = await import('./helpers.ts');
    const env = subagentEnv(
      { PATH: '/bin', CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 's', CLAUDE_PROJECT_DIR: '/p', ANTHROPIC_API_KEY: 'k' },
      makeValidator(),
      '/p',
    );
    expect(env).toEqual({
      PATH: '/bin',
      ANTHROPIC_API_KEY: 'k',
      AVP_VALIDATOR_NAME: 'no-secrets',
      AVP_VALIDATOR_ID: 'no-secrets',
      AVP_VALIDATOR_DIR: '',
      AVP_PROJECT_ROOT: '/p',
      AVP_SUBAGENT: '1',
    });
  });
});

describe('claude CLI result', () => {
  test('result text, usage and model; errors named without noise', async () => {
    const { claudeAnswer } = await import('../../../src/judges/claude.ts');
    const ok = claudeAnswer(
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: '{"passed":true}',
        usage: { input_tokens: 5, output_tokens: 2, cache_read_input_tokens: 1, cache_creation_input_tokens: 0 },
        modelUsage: { 'claude-haiku-4-5-20251001': {} },
      }),
      'claude-haiku-4-5',
    );
    expect(ok).toEqual({
      text: '{"passed":true}',
      model: 'claude-haiku-4-5-20251001',
      usage: { inputTokens: 5, outputTokens: 2, cacheReadTokens: 1, cacheWriteTokens: 0 },
    });
    expect(() =>
      claudeAnswer(
        JSON.stringify({
          type: 'result',
          subtype: 'success',
          is_error: true,
          result: 'Not logged in · Please run /login',
        }),
        'm',
      ),
    ).toThrow(/^the claude sub-agent failed: Not logged in/);
    expect(() =>
      claudeAnswer(JSON.stringify({ type: 'result', subtype: 'error_max_turns', is_error: true, result: '' }), 'm'),
    ).toThrow(/error_max_turns/);
    expect(() => claudeAnswer('Segmentation fault', 'm')).toThrow(/did not print its JSON result/);
  });
});
