/** `avp doctor` through the compiled binary, with the judges' loopback servers and the real Claude CLI. */
import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.ts';
import { AGENT_CLI_BIN } from '../support/agent-clis.ts';
import { startOpenAIServer, type OpenAIServer } from '../support/openai-server.ts';
import { runAvp } from '../support/run-avp.ts';
import { BIN, project, type Project } from './hook-support.ts';
import { closedPort } from './judges-support.ts';

const CLI_DIR = AGENT_CLI_BIN;
let anthropic: AnthropicServer | undefined;
let openai: OpenAIServer | undefined;
afterEach(async () => {
  await anthropic?.close();
  await openai?.close();
  anthropic = openai = undefined;
});

function doctor(p: Project, args: string[], env: Record<string, string>) {
  return runAvp(['doctor', ...args], {
    bin: BIN,
    cwd: p.root,
    env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), PATH: '/usr/bin:/bin', ...env },
    timeoutMs: 60_000,
  });
}

/** Claude Code's project settings calling avp, as `avp init` writes them (plus `extra` settings). */
function withHook(p: Project, extra: Record<string, unknown> = {}) {
  mkdirSync(join(p.root, '.claude'), { recursive: true });
  const hooks = { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'avp hook' }] }] };
  writeFileSync(join(p.root, '.claude/settings.json'), JSON.stringify({ ...extra, hooks }));
}

describe('avp doctor', () => {
  test('nothing installed: "no hook installed" is a problem (exit 1), never "nothing is broken"', async () => {
    const p = project();
    const r = await doctor(p, [], {});
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('judge       none — no LLM judge is available');
    expect(r.stdout).toContain('hooks       none call avp');
    expect(r.stdout).toContain('problem: no hook installed');
    expect(r.stdout).not.toContain('nothing is broken');
    withHook(p);
    const ok = await doctor(p, [], {});
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('ok: nothing is broken');
  });

  test("a hook switched off beside avp's entries (disableAllHooks, an emptied file) is a problem", async () => {
    const p = project();
    withHook(p, { disableAllHooks: true });
    const off = await doctor(p, [], {});
    expect(off.code).toBe(1);
    expect(off.stdout).toContain('disableAllHooks=true');
    writeFileSync(join(p.root, '.claude/settings.json'), '{}\n');
    const empty = await doctor(p, [], {});
    expect(empty.code).toBe(1);
    expect(empty.stdout).toContain('problem: no hook installed');
  });

  test("avp's plugin installed in Claude Code counts as a hook; switched off in enabledPlugins, it is a problem", async () => {
    const p = project();
    const hooks = join(p.home, '.claude/plugins/cache/avp/avp/0.1.0/hooks/hooks.json');
    mkdirSync(join(hooks, '..'), { recursive: true });
    writeFileSync(hooks, readFileSync(resolve(import.meta.dir, '../../plugins/avp/hooks/hooks.json'), 'utf8'));
    const on = await doctor(p, ['--json'], {});
    const claude = JSON.parse(on.stdout).agents.find((a: { agent: string }) => a.agent === 'claude');
    expect(claude.files.map((f: { file: string }) => f.file)).toEqual([hooks]);
    expect(claude.missing).toEqual([]);

    writeFileSync(join(p.home, '.claude/settings.json'), JSON.stringify({ enabledPlugins: { 'avp@avp': false } }));
    const off = await doctor(p, [], {});
    expect(off.code).toBe(1);
    expect(off.stdout).toContain('the plugin avp@avp calls avp but is switched off in Claude Code (enabledPlugins)');
  });

  test('a plugin written by an older avp is a problem until `avp init` rewrites it', async () => {
    const p = project();
    const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), PATH: '/usr/bin:/bin' };
    expect(
      (await runAvp(['init', '--agent', 'opencode', '--no-validators'], { bin: BIN, cwd: p.root, env })).code,
    ).toBe(0);
    const plugin = join(p.root, '.opencode/plugins/avp.ts');
    expect((await doctor(p, [], {})).stdout).not.toContain('older avp');
    // The plugin as avp 0.1 wrote it: no format line.
    writeFileSync(plugin, readFileSync(plugin, 'utf8').replace(/^\/\/ avp plugin format .*\n/m, ''));
    const old = await doctor(p, [], {});
    expect(old.code).toBe(1);
    expect(old.stdout).toContain('was written by an older avp (plugin format 0, now 2)');
    expect(old.stdout).toContain('avp init --agent opencode');
    expect(
      (await runAvp(['init', '--agent', 'opencode', '--no-validators'], { bin: BIN, cwd: p.root, env })).code,
    ).toBe(0);
    expect((await doctor(p, [], {})).stdout).not.toContain('older avp');
  });

  test('LLM validators without a judge and a broken validator: problems, exit 1', async () => {
    const p = project();
    p.validator('llm-check', {});
    p.write('.avp/validators/broken.md', '---\nname: broken\nseverity: fatal\n---\nbody\n');
    const r = await doctor(p, ['--json'], {});
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.validators.llm).toBe(1);
    expect(j.validators.errors[0].path).toContain('broken.md');
    expect(j.problems.join('\n')).toContain('1 LLM validator(s) have no judge');
    expect(j.problems.join('\n')).toContain('fail to load');
    expect(j.judge.error.fix).toContain('ANTHROPIC_API_KEY');
  });

  test('anthropic: why, the probe (one 1-token request), config files, hooks, per-validator routes', async () => {
    const p = project();
    p.validator('llm-check', {});
    p.validator('big-check', { model: 'claude-sonnet-4-5' });
    p.write('avp.config.json', JSON.stringify({ judge: { validators: { 'llm-check': 'openai' } } }));
    mkdirSync(join(p.root, '.claude'), { recursive: true });
    writeFileSync(
      join(p.root, '.claude/settings.json'),
      JSON.stringify({
        hooks: {
          PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `${BIN} hook --agent claude` }] }],
          Stop: [{ hooks: [{ type: 'command', command: 'echo other' }] }],
        },
      }),
    );
    anthropic = await startAnthropicServer(() => ({ text: 'p' }));
    openai = await startOpenAIServer(() => ({ text: '' }));
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: anthropic.url, OPENAI_BASE_URL: openai.url };
    const text = await doctor(p, [], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('judge       anthropic (model claude-haiku-4-5) — auto: ANTHROPIC_API_KEY is set');
    expect(text.stdout).toMatch(/answers \(\d+ ms\)/);
    expect(text.stdout).toContain('llm-check → openai (model gpt-4o-mini)');
    expect(text.stdout).toContain('big-check → anthropic (model claude-sonnet-4-5)');
    expect(text.stdout).toContain('hooks       claude: .claude/settings.json (PostToolUse)');
    expect(text.stdout).toContain('config      avp.config.json');
    expect(anthropic.requests).toHaveLength(1);
    expect(anthropic.requests[0]!.body.max_tokens).toBe(1);
    // The routed judge is probed too, once.
    expect(text.stdout).toContain('for llm-check: openai (model gpt-4o-mini) — judge.validators routes "llm-check"');
    expect(openai.all.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/models']);

    const json = JSON.parse((await doctor(p, ['--json', '--no-probe'], env)).stdout);
    expect(anthropic.requests).toHaveLength(1); // --no-probe sends nothing
    expect(json.judge).toMatchObject({ backend: 'anthropic', model: 'claude-haiku-4-5' });
    expect(json.judge.probe).toBeUndefined();
    expect(json.hooks).toEqual([
      { agent: 'claude', file: join(p.root, '.claude/settings.json'), events: ['PostToolUse'] },
    ]);
  });

  test('a backend that does not answer: exit 1 saying why', async () => {
    const p = project();
    const port = await closedPort();
    const r = await doctor(p, ['--timeout', '3'], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('DOES NOT ANSWER');
    expect(r.stdout).toContain('connection refused');
    anthropic = await startAnthropicServer(() => ({ status: 401, errorMessage: 'invalid x-api-key' }));
    const auth = await doctor(p, [], { ANTHROPIC_API_KEY: 'bad', ANTHROPIC_BASE_URL: anthropic.url });
    expect(auth.code).toBe(1);
    expect(auth.stdout).toContain('invalid x-api-key');
  });

  test('openai: GET /models, the configured model listed or not', async () => {
    const p = project();
    openai = await startOpenAIServer(() => ({ text: '' }));
    withHook(p);
    const r = await doctor(p, [], { OPENAI_BASE_URL: openai.url, AVP_MODEL: 'test-model' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('auto: OPENAI_BASE_URL=');
    expect(r.stdout).toContain('1 models; test-model is listed');
    expect(openai.all.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/models']);
  });

  test('claude on PATH: the real CLI answers a one-turn probe with hooks disabled', async () => {
    const p = project();
    anthropic = await startAnthropicServer(() => ({ text: 'OK' }));
    withHook(p);
    const r = await doctor(p, ['--json'], {
      PATH: `${CLI_DIR}:/usr/bin:/bin`,
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: 'x',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    });
    const j = JSON.parse(r.stdout);
    expect(j.judge.backend).toBe('claude');
    expect(j.judge.probe.ok).toBe(true);
    expect(r.code).toBe(0);
    expect(anthropic.requests.some((q) => q.body.model === 'claude-haiku-4-5')).toBe(true);
  }, 60_000);

  test('a bad --timeout is a usage error', async () => {
    const r = await doctor(project(), ['--timeout', 'soon'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--timeout "soon" is not a positive number');
  });
});
