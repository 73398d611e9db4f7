/**
 * The scripted turn every agent is driven through, and the checks on what its hooks received: the model writes a
 * file, runs a shell command, runs a shell command the recording hook blocks, then ends the turn. Which step the model
 * is at is the number of tool results already in its request, so side requests and retries cannot shift the script.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AGENT_CLI_MODULES } from '../../support/agent-clis.ts';
import { type AgentProject, BLOCK_MARKER, type HookRecord } from './agent-support.ts';

export const WRITTEN_FILE = 'notes.txt';
export const WRITTEN_TEXT = 'written by the model\n';
export const SHELL_COMMAND = 'printf shell-ran > from-shell.txt';
export const BLOCKED_COMMAND = `echo ${BLOCK_MARKER} > blocked.txt`;
export const FINAL_TEXT = 'All done.';
export const PROMPT = 'Write notes.txt, then run the two shell commands.';

export type Step =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'shell'; command: string }
  | { kind: 'done'; text: string };

/** What the model does after `toolResults` tool results (the recording hook's turn; avp-e2e.test.ts has its own). */
export function stepAt(root: string, toolResults: number): Step {
  if (toolResults === 0) return { kind: 'write', path: join(root, WRITTEN_FILE), content: WRITTEN_TEXT };
  if (toolResults === 1) return { kind: 'shell', command: SHELL_COMMAND };
  if (toolResults === 2) return { kind: 'shell', command: BLOCKED_COMMAND };
  return { kind: 'done', text: FINAL_TEXT };
}

/** Tool results (`role: "tool"` messages) in a chat completions request: which step the model is at. */
export const chatToolResults = (body: any): number =>
  (body?.messages ?? []).filter((m: any) => m?.role === 'tool').length;

/** Where a hook input's fixtures live: the captures the adapters are built against. */
export const HOOK_FIXTURES = resolve(import.meta.dir, '../../fixtures/hook');

/** Types of a value's fields, two levels down (`tool_input`'s and `tool_response`'s keys count, their values not). */
export function shapeOf(value: unknown, depth = 2): unknown {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  if (depth === 0) return 'object';
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, shapeOf(v, depth - 1)]),
  );
}

export interface Fixture {
  file: string;
  input: any;
}

/** The `hook-input-*.json` fixtures of one agent. */
export function loadFixtures(agent: string): Fixture[] {
  const dir = join(HOOK_FIXTURES, agent);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith('hook-input-') && f.endsWith('.json'))
    .map((file) => ({ file, input: JSON.parse(readFileSync(join(dir, file), 'utf8')) }));
}

/**
 * The fixtures no recorded hook input matches in shape: same event, same tool, same fields with the same types.
 * Each entry says what the closest recorded input looked like, so a failure shows the difference.
 */
export function unmatchedFixtures(records: HookRecord[], fixtures: Fixture[]): string[] {
  const problems: string[] = [];
  for (const fx of fixtures) {
    const candidates = records
      .map((r) => r.input)
      .filter((i) => i.hook_event_name === fx.input.hook_event_name && i.tool_name === fx.input.tool_name);
    const want = JSON.stringify(shapeOf(fx.input));
    if (candidates.some((c) => JSON.stringify(shapeOf(c)) === want)) continue;
    const got = candidates.length ? JSON.stringify(shapeOf(candidates[0])) : 'no such event recorded';
    problems.push(`${fx.file}: want ${want}\n  got ${got}`);
  }
  return problems;
}

const REPO_MODULES = AGENT_CLI_MODULES;

/**
 * A capture with this machine's paths replaced by the stable ones the other fixtures use: the temp project and HOME
 * (also in the dashed form agents name session folders by), this checkout's node_modules, the server's port.
 */
function normalize(text: string, project: AgentProject): string {
  const swaps: Array<[string, string]> = [
    [project.root, '/home/dev/project'],
    [project.root.replaceAll('/', '-'), '-home-dev-project'],
    [project.home, '/home/dev'],
    [REPO_MODULES, '/usr/local/lib/node_modules'],
  ];
  for (const [from, to] of swaps) text = text.split(from).join(to);
  return text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:8080');
}

/**
 * Writes the first recorded input of each (event, tool) as `hook-input-<Event>[-<tool>].json`, and the first call's
 * variables and cwd as `hook-env-and-cwd.json`, into `test/fixtures/hook/<agent>/` (run with AVP_E2E_CAPTURE=1).
 */
export function captureFixtures(agent: string, project: AgentProject, records: HookRecord[]): string[] {
  const dir = join(HOOK_FIXTURES, agent);
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    const name = ['hook-input', r.input.hook_event_name, r.input.tool_name].filter(Boolean).join('-');
    if (seen.has(name)) continue;
    seen.add(name);
    writeFileSync(join(dir, `${name}.json`), normalize(`${JSON.stringify(r.input, null, 2)}\n`, project));
    written.push(`${name}.json`);
  }
  if (records[0]) {
    const { cwd, ...env } = records[0].env;
    const sorted = Object.fromEntries(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)));
    const text = `${JSON.stringify({ pwd: cwd, env: sorted }, null, 2)}\n`;
    writeFileSync(join(dir, 'hook-env-and-cwd.json'), normalize(text, project));
  }
  return written;
}
