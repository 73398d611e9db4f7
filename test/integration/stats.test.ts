/**
 * `avp stats` on a run log made by real `avp hook` calls (script validators and an LLM validator against the
 * loopback Anthropic server): outcomes, cache hits, tokens, cost from the default price table, and the share of the
 * agent's calls — counted also when nothing matched. Then what a forged or broken log cannot do: stop the count,
 * reach the terminal with escape codes, or make the hook answer differently.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PASSES, project } from './hook-support.ts';
import { LLM_COST, realRun, type RealRun } from './stats-support.ts';

let run: RealRun;
beforeAll(async () => {
  run = await realRun();
}, 120_000);
afterAll(async () => {
  await run?.server.close();
});

const logLines = (root: string) =>
  readdirSync(join(root, '.avp/logs'))
    .filter((n) => n.startsWith('hook-'))
    .flatMap((n) =>
      readFileSync(join(root, '.avp/logs', n), 'utf8')
        .trim()
        .split('\n'),
    )
    .map((l) => JSON.parse(l));

describe('the run log of a real run', () => {
  test('each line carries the validator duration, tokens, cache state and the call it belongs to', () => {
    const lines = logLines(run.p.root);
    expect(lines).toHaveLength(3 + 4 + 4);
    for (const l of lines) {
      expect(typeof l.durationMs).toBe('number');
      expect(typeof l.callMs).toBe('number');
      expect(l.callMs).toBeGreaterThanOrEqual(l.durationMs);
      expect(['toolu_A', 'toolu_B', 'toolu_C']).toContain(l.call);
    }
    const llm = lines.filter((l) => l.validator === 'llm-review');
    expect(llm.map((l) => l.cache)).toEqual(['miss', 'hit']);
    expect(llm[0].tokens).toMatchObject({ inputTokens: 1000, outputTokens: 50, cacheReadTokens: 2000 });
    expect(llm[0].model).toBe('claude-haiku-4-5');
    expect(llm[1].tokens).toBeUndefined();
    expect(lines.filter((l) => l.validator === 'no-keys').every((l) => l.cache === 'none')).toBe(true);
  });

  test('calls where nothing matched are counted (a tool call’s Pre and Post once)', () => {
    const calls = readdirSync(join(run.p.root, '.avp/logs'))
      .filter((n) => n.startsWith('calls-'))
      .flatMap((n) =>
        readFileSync(join(run.p.root, '.avp/logs', n), 'utf8')
          .trim()
          .split('\n'),
      )
      .map((l) => JSON.parse(l));
    expect(calls.map((c) => c.call)).toEqual(['toolu_A', 'toolu_B', 'toolu_C', 'toolu_D', 'toolu_D']);
    // the logs never show up in git, also in a project that never ran `avp init`
    expect(readFileSync(join(run.p.root, '.avp/logs/.gitignore'), 'utf8')).toBe('*\n');
  });
});

describe('avp stats', () => {
  test('--json: per validator outcomes, cache hits, latency, tokens, cost and share of the agent’s calls', async () => {
    const r = await run.avp(['stats', '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.agentCalls).toBe(4);
    expect(s.counted).toBe(true);
    const by = Object.fromEntries(s.validators.map((v: any) => [v.validator, v]));
    expect(by['no-keys']).toMatchObject({
      runs: 3,
      passed: 2,
      blocked: 1,
      warned: 0,
      errors: 0,
      calls: 3,
      share: 0.75,
    });
    expect(by['style-warn']).toMatchObject({ runs: 3, warned: 3, blocked: 0 });
    expect(by['llm-review']).toMatchObject({
      runs: 2,
      passed: 2,
      cacheHits: 1,
      inputTokens: 1000,
      outputTokens: 50,
      cacheReadTokens: 2000,
      calls: 2,
      share: 0.5,
      unpricedModels: [],
    });
    expect(by['llm-review'].costUsd).toBeCloseTo(LLM_COST, 10);
    for (const v of s.validators) {
      expect(v.p50Ms).toBeLessThanOrEqual(v.p95Ms);
      expect(v.p95Ms).toBeLessThanOrEqual(v.maxMs);
      expect(v.maxMs).toBeGreaterThan(0);
    }
    expect(s.total).toMatchObject({ runs: 11, blocked: 1, warned: 3, calls: 3 });
  });

  test('the table for people names every validator and the total', async () => {
    const r = await run.avp(['stats']);
    expect(r.code).toBe(0);
    for (const name of ['no-keys', 'always-ok', 'style-warn', 'llm-review', 'total', 'p95', 'cost', '75%'])
      expect(r.stdout).toContain(name);
    expect(r.stdout).toContain("share of the agent's 4 calls");
  });

  test('--validator and --since narrow the period; a wrong name or period is a usage error with the fix', async () => {
    const one = JSON.parse((await run.avp(['stats', '--validator', 'llm-review', '--since', '1d', '--json'])).stdout);
    expect(one.validators.map((v: any) => v.validator)).toEqual(['llm-review']);
    const future = JSON.parse((await run.avp(['stats', '--since', '2999-01-01', '--json'])).stdout);
    expect(future.validators).toEqual([]);
    const typo = await run.avp(['stats', '--validator', 'llm-reviw']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean llm-review?');
    const bad = await run.avp(['stats', '--since', 'last tuesday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('7d');
  });

  test('a price from config replaces the default; a bad price is refused naming the key', async () => {
    writeFileSync(
      join(run.p.root, 'avp.config.json'),
      JSON.stringify({ prices: { 'claude-haiku-4-5': { input: 2, output: 10 } } }),
    );
    const priced = JSON.parse((await run.avp(['stats', '--json'])).stdout);
    const llm = priced.validators.find((v: any) => v.validator === 'llm-review');
    // no cacheRead price given: cache reads cost the input price
    expect(llm.costUsd).toBeCloseTo((1000 * 2 + 50 * 10 + 2000 * 2) / 1e6, 10);
    writeFileSync(join(run.p.root, 'avp.config.json'), JSON.stringify({ prices: { x: { input: -1, output: 1 } } }));
    const badPrice = await run.avp(['stats']);
    expect(badPrice.code).toBe(1);
    expect(badPrice.stderr).toContain('prices.x.input');
    rmSync(join(run.p.root, 'avp.config.json'));
  });
});

describe('avp check --json', () => {
  test('each event carries per-validator duration, judge, tokens and cache state', async () => {
    const r = await run.avp(['check', 'src/config.ts', '--event', 'PostToolUse', '--json'], run.env);
    const out = JSON.parse(r.stdout);
    const runs = out.events.flatMap((e: any) => e.runs);
    expect(runs.map((x: any) => x.validator).sort()).toEqual(['always-ok', 'no-keys', 'style-warn']);
    for (const x of runs) {
      expect(typeof x.durationMs).toBe('number');
      expect(x).toMatchObject({ judge: 'script', cache: 'none' });
    }
    expect(runs.find((x: any) => x.validator === 'style-warn').status).toBe('failed');
  });
});

describe('a log the agent could have written to', () => {
  test('broken and forged lines are skipped and named; escape codes never reach the terminal', async () => {
    const p = project();
    p.validator('ok', { match: { tools: ['Write', 'Edit'] } }, PASSES);
    const r = await p.hook({ ...p.fixture('hook-input-PostToolUse-Write.json'), tool_use_id: 'toolu_1' });
    expect(r.code).toBe(0);
    const day = new Date().toISOString().slice(0, 10);
    const file = join(p.root, `.avp/logs/hook-${day}.jsonl`);
    const ts = new Date().toISOString();
    appendFileSync(
      file,
      [
        '{"ts":"' + ts + '","validator":"cut-sh', // a line cut short
        JSON.stringify({ ts, validator: 'neg', status: 'passed', durationMs: -5 }),
        JSON.stringify({ ts, validator: 'bogus', status: 'maybe', durationMs: 1 }),
        JSON.stringify({ ts, validator: 'evil\u001b]0;pwned\u0007\u001b[2J', status: 'failed', durationMs: 3 }),
        // a model with no price: the cost is unknown, not zero
        JSON.stringify({
          ts,
          validator: 'mystery',
          status: 'passed',
          durationMs: 9,
          model: 'mystery-1',
          tokens: { inputTokens: 5, outputTokens: 1 },
        }),
        'x'.repeat(2 * 1024 * 1024),
      ].join('\n') + '\n',
    );
    const { runAvp } = await import('../support/run-avp.ts');
    const { BIN } = await import('./hook-support.ts');
    const s = await runAvp(['stats'], {
      bin: BIN,
      cwd: p.root,
      env: { HOME: p.home, AVP_HOME: join(p.home, '.avp') },
    });
    expect(s.code).toBe(0);
    expect(s.stdout).toContain('ok');
    expect(s.stdout).toContain('evil?]0;pwned??[2J');
    expect(s.stdout + s.stderr).not.toContain('\u001b');
    expect(s.stderr).toContain('skipped 4 unreadable log lines');
    expect(s.stderr).toContain(`.avp/logs/hook-${day}.jsonl:2`);
    expect(s.stdout).toContain('no price for mystery-1');
    expect(s.stdout).toMatch(/mystery .* \?\s/);
  });

  test('a counter that cannot be written changes nothing in the hook answer', async () => {
    const p = project();
    p.validator('ok', { match: { tools: ['Write'] } }, PASSES);
    const input = { ...p.fixture('hook-input-PostToolUse-Edit.json'), tool_use_id: 'toolu_x' };
    const before = await p.hook(input);
    // the logs folder replaced by a file: no counter line, no run log can be written
    rmSync(join(p.root, '.avp/logs'), { recursive: true, force: true });
    writeFileSync(join(p.root, '.avp/logs'), 'not a folder');
    const after = await p.hook(input);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(before.stdout);
    expect(after.stdout.trim()).toBe('{}');
  });
});
