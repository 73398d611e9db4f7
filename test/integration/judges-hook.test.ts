/**
 * LLM judges through the compiled binary: `dist/avp hook` with 8 LLM validators against the loopback Anthropic server
 * (each answer delayed ~1 s) finishes in about 1 s; a second identical event is answered from the verdict cache; with
 * no backend configured every LLM validator is a validator error saying how to configure one; the claude backend runs
 * end to end from a hook without re-entering avp.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.ts';
import { AGENT_CLI_BIN } from '../support/agent-clis.ts';
import { runAvp } from '../support/run-avp.ts';
import { BIN, PASSES, project, sh, type Project } from './hook-support.ts';

const CLI_DIR = AGENT_CLI_BIN;
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The validator a request is about (the prompt names it: "# Validator `name`"). */
const validatorOf = (body: any) => /# Validator `([^`]+)`/.exec(JSON.stringify(body.messages))?.[1];

function llmProject(n: number): Project {
  const p = project();
  for (let i = 1; i <= n; i++) p.validator(`llm-${i}`, { match: { tools: ['Edit'] } });
  p.write('src/config.ts', 'const API_KEY = process.env.API_KEY;\n');
  return p;
}

const projectEnv = (p: Project) => ({ HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root });
const apiEnv = (url: string) => ({ PATH: '/usr/bin:/bin', ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'k' });

describe('avp hook with LLM judges', () => {
  test('8 LLM validators are all in flight at once; the same event again is served from the cache', async () => {
    const p = llmProject(8);
    // A barrier instead of a stopwatch: no answer leaves before all 8 requests have arrived. Validators run one after
    // another (or fewer than 8 at a time) would wait out the fallback and leave `together` false.
    let arrived = 0;
    let answered = false;
    let together = false;
    let release!: () => void;
    const allIn = new Promise<void>((r) => (release = r));
    server = await startAnthropicServer(async ({ body }) => {
      if (++arrived === 8) {
        together = !answered;
        release();
      }
      await Promise.race([allIn, Bun.sleep(10_000)]);
      answered = true;
      const name = validatorOf(body)!;
      const verdict =
        name === 'llm-5'
          ? {
              passed: false,
              violations: [{ rule: 'llm-5', file: 'src/config.ts', line: 1, snippet: 'API_KEY', suggestion: 'fix' }],
              summary: 'llm-5 failed',
            }
          : { passed: true, violations: [], summary: `${name} ok` };
      return {
        toolUse: { name: 'report_verdict', input: verdict },
        usage: { input_tokens: 800, output_tokens: 20, cache_read_input_tokens: 600 },
      };
    });
    const input = p.fixture('hook-input-PostToolUse-Edit.json');
    // Separate requests on purpose (their concurrency is what is measured); batching has judges-batch.test.ts.
    const first = await p.hook(input, { ...apiEnv(server.url), AVP_JUDGE_BATCH: '0' });
    expect(first.code).toBe(0);
    expect(first.json.decision).toBe('block');
    expect(first.json.reason).toContain('llm-5');
    expect(server.requests).toHaveLength(8);
    expect(new Set(server.requests.map((r) => validatorOf(r.body)))).toEqual(
      new Set(Array.from({ length: 8 }, (_, i) => `llm-${i + 1}`)),
    );
    expect(together, 'all 8 judge requests were in flight at once').toBe(true);

    const second = await p.hook(input, { ...apiEnv(server.url), AVP_JUDGE_BATCH: '0' });
    console.log(`avp hook, same event, 8 verdicts from the cache: ${Math.round(second.ms)} ms`);
    expect(server.requests).toHaveLength(8); // no request reached the server
    expect(second.json.decision).toBe('block');
    expect(second.json.reason).toContain('llm-5');
    expect(existsSync(join(p.home, '.avp/cache/verdicts'))).toBe(true);
    expect(existsSync(join(p.root, '.avp/cache'))).toBe(false); // never in the project, where the agent writes

    // token usage reaches the JSONL run log; the cached runs say so and spend nothing
    const logs = readdirSync(join(p.root, '.avp/logs'))
      .filter((f) => f.startsWith('hook-'))
      .map((f) => readFileSync(join(p.root, '.avp/logs', f), 'utf8'))
      .join('');
    const lines = logs
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => String(l.validator).startsWith('llm-'));
    expect(lines).toHaveLength(16);
    expect(
      lines
        .slice(0, 8)
        .every((l) => l.judge === 'anthropic' && l.tokens?.inputTokens === 800 && l.tokens?.cacheReadTokens === 600),
    ).toBe(true);
    expect(lines.slice(8).every((l) => l.cached === true && l.tokens === undefined)).toBe(true);

    // AVP_NO_CACHE=1, or `avp hook --no-cache`: asked again
    await p.hook(input, { ...apiEnv(server.url), AVP_NO_CACHE: '1', AVP_JUDGE_BATCH: '0' });
    expect(server.requests).toHaveLength(16);
    const noCache = await runAvp(['hook', '--no-cache'], {
      bin: BIN,
      cwd: p.root,
      stdin: JSON.stringify(input),
      env: { ...projectEnv(p), ...apiEnv(server.url), AVP_JUDGE_BATCH: '0' },
    });
    expect(JSON.parse(noCache.stdout).decision).toBe('block');
    expect(server.requests).toHaveLength(24);
  }, 60_000);

  test('avp check --json reports token usage; --no-cache asks the judges again', async () => {
    const p = project();
    p.validator('llm-check', { match: { tools: ['Write', 'Edit'] } });
    p.write('src/config.ts', 'const API_KEY = process.env.API_KEY;\n');
    server = await startAnthropicServer(() => ({
      toolUse: { name: 'report_verdict', input: { passed: true, violations: [], summary: 'ok' } },
      usage: { input_tokens: 500, output_tokens: 10 },
    }));
    const check = (...args: string[]) =>
      runAvp(['check', 'src/config.ts', '--json', ...args], {
        bin: BIN,
        cwd: p.root,
        env: { ...projectEnv(p), ...apiEnv(server!.url) },
      });
    const first = await check();
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).usage).toMatchObject({ inputTokens: 500, outputTokens: 10 });
    const asked = server.requests.length;
    expect(asked).toBeGreaterThan(0);
    await check();
    expect(server.requests).toHaveLength(asked); // from the cache
    await check('--no-cache');
    expect(server.requests).toHaveLength(asked * 2);
  }, 60_000);

  test('no backend configured: every LLM validator is a blocking validator error saying how to configure one', async () => {
    const p = llmProject(2);
    const r = await p.hook(p.fixture('hook-input-PostToolUse-Edit.json'), { PATH: '/usr/bin:/bin' });
    expect(r.code).toBe(0);
    expect(r.json.decision).toBe('block');
    expect(r.json.reason).toContain('no LLM judge is available');
    expect(r.json.reason).toContain('ANTHROPIC_API_KEY');
  }, 30_000);

  test('judge errors are not cached: a rejected request blocks, the next call asks again', async () => {
    const p = llmProject(1);
    let fail = true;
    server = await startAnthropicServer(() =>
      fail
        ? { status: 400, errorMessage: 'bad model' }
        : { toolUse: { name: 'report_verdict', input: { passed: true, violations: [], summary: 'ok' } } },
    );
    const input = p.fixture('hook-input-PostToolUse-Edit.json');
    const bad = await p.hook(input, apiEnv(server.url));
    expect(bad.json.decision).toBe('block');
    expect(bad.json.reason).toContain('bad model');
    fail = false;
    const good = await p.hook(input, apiEnv(server.url));
    expect(good.json.decision).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  }, 30_000);

  test('claude backend from a hook: the sub-agent reviews, reads a file, blocks; avp is not re-entered', async () => {
    const p = project();
    p.validator('llm-secrets', { match: { tools: ['Edit'] } });
    p.validator(
      'read-marker',
      { match: { tools: ['Read'] } },
      sh(`echo ran >> "$AVP_PROJECT_ROOT/avp-validator-ran.txt"\n${PASSES.split('\n').slice(1).join('\n')}`),
    );
    p.write('src/config.ts', 'const API_KEY = process.env.API_KEY;\n');
    mkdirSync(join(p.root, '.claude'), { recursive: true });
    writeFileSync(
      join(p.root, '.claude/settings.json'),
      JSON.stringify({
        hooks: { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `${BIN} hook` }] }] },
      }),
    );
    const verdict = {
      passed: false,
      violations: [{ rule: 'no-secrets', file: 'src/config.ts', line: 1, snippet: 'sk-live', suggestion: 'env' }],
      summary: 'hardcoded key',
    };
    server = await startAnthropicServer(({ body }) => {
      if (!body.tools) return { text: 'ok' };
      const turns = body.messages.filter((m: any) => m.role === 'assistant').length;
      return turns === 0
        ? { toolUse: { name: 'Read', input: { file_path: join(p.root, 'src/config.ts') } } }
        : { text: JSON.stringify(verdict) };
    });
    const r = await p.hook(p.fixture('hook-input-PostToolUse-Edit.json'), {
      PATH: `${CLI_DIR}:/usr/bin:/bin`,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'x',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    });
    expect(r.json.decision).toBe('block');
    expect(r.json.reason).toContain('[llm-secrets] src/config.ts:1: no-secrets');
    expect(server.requests.filter((q) => q.body.tools)).toHaveLength(2);
    expect(existsSync(join(p.root, 'avp-validator-ran.txt'))).toBe(false);
  }, 90_000);
});
