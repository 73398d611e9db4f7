/**
 * The `claude` backend with the real Claude Code CLI (from scripts/agent-clis.sh) pointed at the loopback Anthropic
 * server, and the recursion guard proven with it: a project whose `.claude/settings.json` runs `avp hook` (and a plain
 * marker hook) on every tool call, where the sub-agent's scripted turn calls Read.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeFor } from '../../src/judges/select.ts';
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.ts';
import { AGENT_CLI_BIN } from '../support/agent-clis.ts';
import { editEvent, makeValidator } from '../unit/judges/helpers.ts';
import { BIN, PASSES, project, sh, type Project } from './hook-support.ts';
import { config, evaluate, rejection } from './judges-support.ts';

const CLI_DIR = AGENT_CLI_BIN;
const FAILED = {
  passed: false,
  violations: [{ rule: 'no-secrets', file: 'src/config.ts', line: 1, snippet: 'sk-live', suggestion: 'env' }],
  summary: 'hardcoded key',
};

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The environment that points the real CLI at the loopback server, with nothing of the real user's. */
function cliEnv(p: Project, url: string): Record<string, string> {
  return {
    PATH: `${CLI_DIR}:/usr/bin:/bin`,
    HOME: p.home,
    AVP_HOME: join(p.home, '.avp'),
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'x',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}

/** A sub-agent script: turn 1 reads `file` with the Read tool, turn 2 answers `verdict`. Side requests get text. */
function readThenAnswer(file: string, verdict: unknown) {
  return ({ body }: { body: any }) => {
    if (!body.tools) return { text: 'ok' };
    const turns = body.messages.filter((m: any) => m.role === 'assistant').length;
    if (turns === 0) return { toolUse: { name: 'Read', input: { file_path: file } } };
    return { text: `Reviewed.\n${JSON.stringify(verdict)}` };
  };
}

/**
 * A project with avp hooked into Claude Code for every tool call, a script validator on PostToolUse:Read that
 * appends to `avp-validator-ran.txt`, and a plain hook that appends to `plain-hook-ran.txt`.
 */
function hookedProject(): Project {
  const p = project();
  p.validator(
    'read-marker',
    { match: { tools: ['Read'] } },
    sh(`echo ran >> "$AVP_PROJECT_ROOT/avp-validator-ran.txt"\n${PASSES.split('\n').slice(1).join('\n')}`),
  );
  p.write('src/config.ts', 'export const KEY = "sk-live-1";\n');
  const hook = (command: string) => [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 60 }] }];
  mkdirSync(join(p.root, '.claude'), { recursive: true });
  writeFileSync(
    join(p.root, '.claude/settings.json'),
    JSON.stringify(
      { hooks: { PostToolUse: [...hook(`${BIN} hook`), ...hook(`echo ran >> ${p.root}/plain-hook-ran.txt`)] } },
      null,
      2,
    ),
  );
  return p;
}

async function runCli(p: Project, env: Record<string, string>, args: string[] = []) {
  const proc = Bun.spawn([join(CLI_DIR, 'claude'), '-p', 'review src/config.ts', '--output-format', 'json', ...args], {
    cwd: p.root,
    env,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
  const [out, , code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { code, json: JSON.parse(out) };
}

describe('claude backend with the real Claude CLI', () => {
  test('auto-detected on PATH; read-only tools, our system prompt, small model; verdict and usage from its JSON', async () => {
    const p = project();
    server = await startAnthropicServer(({ body }) =>
      body.tools ? { text: JSON.stringify(FAILED), usage: { input_tokens: 321, output_tokens: 12 } } : { text: 'ok' },
    );
    const v = makeValidator();
    // As inside a hook: Claude Code's session markers (hook-env-and-cwd.json) are in avp's environment.
    const hookEnv = {
      CLAUDECODE: '1',
      CLAUDE_CODE_CHILD_SESSION: '1',
      CLAUDE_CODE_ENTRYPOINT: 'sdk-cli',
      CLAUDE_CODE_SESSION_ID: 'a27d19bd-40c9-40a3-b0ea-6d30f9d09f37',
      CLAUDE_PROJECT_DIR: p.root,
    };
    const judge = await judgeFor(v, config(), { ...cliEnv(p, server.url), ...hookEnv });
    expect(judge.name).toBe('claude');
    const r = await evaluate(
      judge,
      v,
      editEvent({ before: 'x\n', after: 'export const KEY = "sk-live-1";\n', projectRoot: p.root }),
      60_000,
    );
    expect(r.verdict).toEqual(FAILED);
    expect(r).toMatchObject({
      judge: 'claude',
      model: 'claude-haiku-4-5',
      usage: { inputTokens: 321, outputTokens: 12 },
    });
    const main = server.requests.find((q) => q.body.tools)!;
    expect(main.body.model).toBe('claude-haiku-4-5');
    expect(main.body.tools.map((t: any) => t.name).sort()).toEqual(['Glob', 'Grep', 'Read']);
    expect(JSON.stringify(main.body.system)).toContain('You are an AVP validator');
    expect(JSON.stringify(main.body.messages[0])).toContain('+export const KEY = \\"sk-live-1\\";');
    // the CLI's own environment section is replaced by avp's system prompt: the project root is in the event
    expect(JSON.stringify(main.body.messages[0])).toContain(`project root: ${p.root}`);
    // no session files were written
    expect(existsSync(join(p.home, '.claude/projects'))).toBe(false);
  }, 90_000);

  test("the sub-agent may read the validator's references (outside the project)", async () => {
    const p = project();
    const v = makeValidator({ references: { 'policy.md': 'POLICY-TEXT-7731' } });
    server = await startAnthropicServer(readThenAnswer(v.references[0]!, FAILED));
    const judge = await judgeFor(v, config(), cliEnv(p, server.url));
    const r = await evaluate(judge, v, editEvent({ before: 'x\n', after: 'y\n', projectRoot: p.root }), 60_000);
    expect(r.verdict.passed).toBe(false);
    const last = JSON.stringify(server.requests.at(-1)!.body.messages.at(-1));
    expect(last).toContain('tool_result');
    expect(last).toContain('POLICY-TEXT-7731');
  }, 90_000);

  test('unreadable reply twice: judge-unreadable; the repair run carries the previous reply', async () => {
    const p = project();
    server = await startAnthropicServer(({ body }) =>
      body.tools ? { text: 'Looks fine to me overall.' } : { text: 'ok' },
    );
    const v = makeValidator();
    const judge = await judgeFor(v, config(), cliEnv(p, server.url));
    const e = await rejection(
      evaluate(judge, v, editEvent({ before: 'x\n', after: 'y\n', projectRoot: p.root }), 60_000),
    );
    expect(e.code).toBe('judge-unreadable');
    const mains = server.requests.filter((q) => q.body.tools);
    expect(mains).toHaveLength(2);
    expect(JSON.stringify(mains[1]!.body.messages[0])).toContain('Looks fine to me overall.');
  }, 90_000);

  test("timeout kills the sub-agent's process group", async () => {
    const p = project();
    server = await startAnthropicServer(() => ({ text: JSON.stringify(FAILED), delayMs: 30_000 }));
    const v = makeValidator();
    const judge = await judgeFor(v, config(), cliEnv(p, server.url));
    const started = performance.now();
    const e = await rejection(
      evaluate(judge, v, editEvent({ before: 'x\n', after: 'y\n', projectRoot: p.root }), 3000),
    );
    expect(e.code).toBe('judge-timeout');
    expect(e.message).toContain('killed');
    expect(performance.now() - started).toBeLessThan(8000);
  }, 60_000);
});

describe('recursion guard with the real CLI', () => {
  test("control: without the guard, the Read of a plain `claude -p` session runs the hooks and avp's validators", async () => {
    const p = hookedProject();
    server = await startAnthropicServer(
      readThenAnswer(join(p.root, 'src/config.ts'), { passed: true, violations: [], summary: 'ok' }),
    );
    const run = await runCli(p, cliEnv(p, server.url), ['--allowedTools', 'Read']);
    expect(run.json.is_error).toBe(false);
    expect(existsSync(join(p.root, 'plain-hook-ran.txt'))).toBe(true);
    expect(readFileSync(join(p.root, 'avp-validator-ran.txt'), 'utf8')).toBe('ran\n');
  }, 90_000);

  test('AVP_SUBAGENT=1 alone: the hooks still fire but `avp hook` passes through', async () => {
    const p = hookedProject();
    server = await startAnthropicServer(
      readThenAnswer(join(p.root, 'src/config.ts'), { passed: true, violations: [], summary: 'ok' }),
    );
    const run = await runCli(p, { ...cliEnv(p, server.url), AVP_SUBAGENT: '1' }, ['--allowedTools', 'Read']);
    expect(run.json.is_error).toBe(false);
    expect(existsSync(join(p.root, 'plain-hook-ran.txt'))).toBe(true);
    expect(existsSync(join(p.root, 'avp-validator-ran.txt'))).toBe(false);
  }, 90_000);

  test('the claude judge: its sub-agent reads a file, no hook and no avp validator runs', async () => {
    const p = hookedProject();
    server = await startAnthropicServer(readThenAnswer(join(p.root, 'src/config.ts'), FAILED));
    const v = makeValidator();
    const judge = await judgeFor(v, config(), cliEnv(p, server.url));
    const r = await evaluate(
      judge,
      v,
      editEvent({ before: 'x\n', after: 'export const KEY = "sk-live-1";\n', projectRoot: p.root }),
      60_000,
    );
    expect(r.verdict).toEqual(FAILED);
    // the Read really happened…
    expect(JSON.stringify(server.requests.at(-1)!.body.messages.at(-1))).toContain('sk-live-1');
    // …and fired nothing
    expect(existsSync(join(p.root, 'plain-hook-ran.txt'))).toBe(false);
    expect(existsSync(join(p.root, 'avp-validator-ran.txt'))).toBe(false);
  }, 90_000);
});
