/**
 * A run log made the real way, for the stats and report tests: `dist/avp hook` calls on a project with three script
 * validators and one LLM validator answered by the loopback Anthropic server (which reports token usage), plus calls
 * that match nothing. What it produces, by construction:
 *   Write (call A): no-keys blocks, always-ok passes, style-warn warns
 *   Edit  (call B): no-keys, always-ok pass, style-warn warns, llm-review asks the server (cache miss)
 *   Edit  (call C, same change): the same, llm-review answered from the verdict cache (hit, no tokens)
 *   Read  (call D, PreToolUse then PostToolUse): nothing matches — only the hook-call counter sees it
 */
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.ts';
import { runAvp, type AvpRun } from '../support/run-avp.ts';
import { BIN, KEY_FINDER, PASSES, project, sh, type Project } from './hook-support.ts';

export const LLM_USAGE = { input_tokens: 1000, output_tokens: 50, cache_read_input_tokens: 2000 };
/** claude-haiku-4-5 at the default prices: 1000 × $1 + 50 × $5 + 2000 × $0.10 per million tokens. */
export const LLM_COST = (1000 * 1 + 50 * 5 + 2000 * 0.1) / 1_000_000;

const STYLE_WARN = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"style","file":"src/config.ts","line":1,"message":"long line"}],"summary":"1 style issue"}'`,
);

export interface RealRun {
  p: Project;
  server: AnthropicServer;
  env: Record<string, string>;
  /** `avp <args>` in the project, as the user. */
  avp(args: string[], extra?: Record<string, string>): Promise<AvpRun>;
}

/** Makes the project, runs the hook calls above through the binary, and returns it (close `server` after). */
export async function realRun(): Promise<RealRun> {
  const p = project();
  p.validator('no-keys', { match: { tools: ['Write', 'Edit'] } }, KEY_FINDER, 'check.ts');
  p.validator('always-ok', { match: { tools: ['Write', 'Edit'] } }, PASSES);
  p.validator('style-warn', { severity: 'warn', match: { tools: ['Write', 'Edit'] } }, STYLE_WARN);
  p.validator('llm-review', { match: { tools: ['Edit'] } });
  p.write('src/config.ts', 'const API_KEY = process.env.API_KEY;\n');
  const server = await startAnthropicServer(() => ({
    toolUse: { name: 'report_verdict', input: { passed: true, violations: [], summary: 'looks fine' } },
    usage: LLM_USAGE,
  }));
  const env = {
    PATH: '/usr/bin:/bin',
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'k',
    AVP_MODEL: 'claude-haiku-4-5',
  };
  const call = async (input: Record<string, any>, id: string) => {
    const r = await p.hook({ ...input, tool_use_id: id }, env);
    if (r.code !== 0) throw new Error(`avp hook failed: ${r.stderr}`);
    return r;
  };
  const write = p.fixture('hook-input-PostToolUse-Write.json');
  const edit = p.fixture('hook-input-PostToolUse-Edit.json');
  await call(write, 'toolu_A');
  await call(edit, 'toolu_B');
  await call(edit, 'toolu_C');
  const read = {
    ...edit,
    tool_name: 'Read',
    tool_input: { file_path: join(p.root, 'src/config.ts') },
    tool_response: { type: 'text', file: { filePath: join(p.root, 'src/config.ts'), content: 'x' } },
  };
  const { tool_response: _unused, ...pre } = { ...read, hook_event_name: 'PreToolUse' };
  await call(pre, 'toolu_D');
  await call(read, 'toolu_D');
  const userEnv = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root };
  return {
    p,
    server,
    env,
    avp: (args, extra = {}) => runAvp(args, { bin: BIN, cwd: p.root, env: { ...userEnv, ...extra } }),
  };
}
