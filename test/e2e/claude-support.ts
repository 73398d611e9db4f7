/**
 * Driving the real Claude Code CLI (npm `@anthropic-ai/claude-code`, from scripts/agent-clis.sh) offline against the
 * loopback Anthropic server, in a throwaway project whose `.claude/settings.json` was written by `dist/avp init`.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AGENT_CLI_BIN } from '../support/agent-clis.ts';
import { AVP_BIN } from '../support/run-avp.ts';

export const CLAUDE_BIN = join(AGENT_CLI_BIN, 'claude');
export const FIXTURES = resolve(import.meta.dir, '../fixtures/session');

export interface Project {
  root: string;
  home: string;
  env: Record<string, string>;
  cleanup(): void;
}

/**
 * A git project with the given fixture validators, avp installed into its Claude settings by `dist/avp init`
 * (with the catalog's recommended validators when `catalog` is set, else `--no-validators`).
 */
export async function makeProject(validators: string[], opts: { catalog?: boolean } = {}): Promise<Project> {
  const base = mkdtempSync(join(tmpdir(), 'avp-e2e-'));
  const root = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AVP_HOME: join(home, '.avp'),
    NO_COLOR: '1',
  };
  const git = Bun.spawnSync(
    ['bash', '-c', 'git init -q && git config user.email e2e@example.com && git config user.name e2e'],
    { cwd: root, env },
  );
  if (git.exitCode !== 0) throw new Error(`git init failed: ${git.stderr}`);
  const init = Bun.spawnSync([AVP_BIN, 'init', ...(opts.catalog ? [] : ['--no-validators'])], {
    cwd: root,
    env,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (init.exitCode !== 0) throw new Error(`avp init failed (${init.exitCode}): ${init.stderr}`);
  for (const v of validators) cpSync(join(FIXTURES, v), join(root, '.avp', 'validators', v), { recursive: true });
  // Validators copied in after `avp init` are pending until the user accepts them.
  const accept = Bun.spawnSync([AVP_BIN, 'accept'], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
  if (accept.exitCode !== 0) throw new Error(`avp accept failed (${accept.exitCode}): ${accept.stderr}`);
  return { root, home, env, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export interface ClaudeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * `claude -p <prompt> --output-format json --permission-mode acceptEdits` in `project`, against `baseUrl`. Claude
 * Code starts hooks detached, so on timeout the whole process group is killed.
 */
export async function runClaude(
  project: Project,
  baseUrl: string,
  prompt: string,
  opts: { timeoutMs?: number; args?: string[] } = {},
): Promise<ClaudeRun> {
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const proc = Bun.spawn(
    [CLAUDE_BIN, '-p', prompt, '--output-format', 'json', '--permission-mode', 'acceptEdits', ...(opts.args ?? [])],
    {
      cwd: project.root,
      env: {
        ...project.env,
        ANTHROPIC_BASE_URL: baseUrl,
        ANTHROPIC_API_KEY: 'sk-ant-test-e2e',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
      detached: true,
    },
  );
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-proc.pid, 'SIGKILL');
    } catch {
      proc.kill('SIGKILL');
    }
  }, timeoutMs);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr, timedOut };
}

/** Main-conversation requests (those that carry tools), in order. */
export function mainRequests(requests: Array<{ body: any }>): any[] {
  return requests.map((r) => r.body).filter((b) => Array.isArray(b?.tools) && b.tools.length > 0);
}

/** Number of assistant messages already in a request: which scripted turn the model is at. */
export function turnOf(body: any): number {
  return (body?.messages ?? []).filter((m: any) => m.role === 'assistant').length;
}

/**
 * All text the model got after its last message: tool results, user messages and the `system` messages in which
 * this Claude Code version delivers hook feedback.
 */
export function newInput(body: any): string {
  const msgs: any[] = body?.messages ?? [];
  let last = -1;
  msgs.forEach((m, i) => {
    if (m.role === 'assistant') last = i;
  });
  return msgs
    .slice(last + 1)
    .map((m) => flatten(m.content))
    .join('\n');
}

export function flatten(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => flatten(c)).join('\n');
  if (content && typeof content === 'object') {
    const c = content as Record<string, unknown>;
    return [c.text, c.content]
      .map((x) => flatten(x))
      .filter(Boolean)
      .join('\n');
  }
  return '';
}
