/**
 * What `avp hook` must answer for a generated input, decided from the input alone — JSON grammar, Claude Code's
 * field types, node:path — and the fuzz project's validators, never by calling avp's normalizing or matching code.
 *
 * The project's validators (hook-fuzz.test.ts writes them):
 * - `always-fails-pre` / `always-fails-post`: severity error, PreToolUse / PostToolUse, tools `Write|Edit|MultiEdit`,
 *   files `**\/*`, a script that always reports a violation;
 * - `stop-fails`: severity error, Stop, always fails;
 * - `warns`: severity warn, UserPromptSubmit, always fails;
 * - `never-matches`: severity error, Notification with a triggerMatcher no generated input carries.
 */
import { isAbsolute, resolve } from 'node:path';
import type { FuzzLayout } from './values.ts';

/** `not-event`: exit 2. `malformed`: an object with an event name but a core field of the wrong type (exit 0 or 2). */
export type Shape = 'event' | 'malformed' | 'not-event';

export interface Expectation {
  shape: Shape;
  /** `block`: must deny/block, by `by`; `pass`: must not block; `warn`: must warn, not block; `any`: no claim. */
  outcome: 'block' | 'pass' | 'warn' | 'any';
  by?: string;
  /** Set when `outcome` would be `block` but a known avp bug makes it pass; the bug's name. */
  knownBug?: string;
  /** Why `any` (no claim), for the record. */
  why?: string;
}

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit']);
/** Claude Code's event names are identifiers (PascalCase today; avp accepts any identifier). */
const EVENT_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The JSON value of stdin as any JSON reader sees it (surrounding whitespace, a BOM included, is not content). */
export function parseStdin(stdin: string): { ok: true; value: unknown } | { ok: false } {
  // trim(), not a regex: `\s+$` is quadratic on the megabytes of indentation a pretty-printed deep value has.
  const text = stdin.trim();
  if (!text) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** How many levels of objects and arrays a JSON value nests (a scalar: 0), counted without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const todo: Array<[unknown, number]> = [[value, 1]];
  while (todo.length) {
    const [v, d] = todo.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d);
    for (const child of Object.values(v)) todo.push([child, d + 1]);
  }
  return deepest;
}

/**
 * The project root avp must use: CLAUDE_PROJECT_DIR, else — for a cwd inside the fuzz project, which holds `.git` —
 * the fuzz project; undefined when the cwd is elsewhere (no claim is made then).
 */
function projectRootFor(cwd: string, env: Record<string, string>, l: FuzzLayout): string | undefined {
  if (env.CLAUDE_PROJECT_DIR) return env.CLAUDE_PROJECT_DIR;
  return cwd === l.root || cwd.startsWith(`${l.root}/`) ? l.root : undefined;
}

/** The expectation for one file-tool call at Pre/PostToolUse. */
function fileToolOutcome(e: Record<string, unknown>, runnerCwd: string, env: Record<string, string>, l: FuzzLayout) {
  const by = e.hook_event_name === 'PreToolUse' ? 'always-fails-pre' : 'always-fails-post';
  const named = (e.tool_input as Record<string, unknown> | undefined)?.file_path;
  if (typeof named !== 'string' || !named) return { outcome: 'any' as const, why: 'no file path named' };
  const cwd = resolve(runnerCwd, typeof e.cwd === 'string' ? e.cwd : '');
  const root = projectRootFor(cwd, env, l);
  const target = isAbsolute(named) ? resolve(named) : resolve(cwd, named);
  // avp finds the project from the file itself too, and follows symlinks to where a path really lands.
  const fileInProject = target.startsWith(`${l.root}/`) || target.startsWith(`${l.outside}/in-link/`);
  if (!root && !fileInProject) return { outcome: 'any' as const, why: 'neither the cwd nor the file is in a project' };
  // A folder (`/`, the project itself) is not a file: what a tool does with it is the tool's business.
  if (target === '/' || target === l.root || named.endsWith('/')) return { outcome: 'any' as const, why: 'a folder' };
  // `**/*` means any file: outside the project too, whatever its name holds (`..foo`, line breaks).
  return { outcome: 'block' as const, by };
}

/** The expectation for one stdin text run with `env` from `runnerCwd` in the fuzz project `l`. */
export function expect(stdin: string, env: Record<string, string>, runnerCwd: string, l: FuzzLayout): Expectation {
  const parsed = parseStdin(stdin);
  if (!parsed.ok || !isObject(parsed.value)) return { shape: 'not-event', outcome: 'any' };
  // docs/hook-mode.md: the input nests at most 512 levels (the event object is the first).
  if (depthOf(parsed.value) > 512) return { shape: 'not-event', outcome: 'any' };
  const e = parsed.value;
  const name = e.hook_event_name;
  if (typeof name !== 'string' || !EVENT_NAME.test(name)) return { shape: 'not-event', outcome: 'any' };
  const input = isObject(e.tool_input) ? e.tool_input : {};
  // No file system has a path this long or deep: avp refuses such a cwd or file path as input it cannot use.
  const absurd = (v: unknown) =>
    typeof v === 'string' && (Buffer.byteLength(v) > 4096 || v.split('/').length > 512 || v.includes('\0'));
  const wrongType =
    ['session_id', 'cwd', 'tool_name'].some((k) => e[k] !== undefined && typeof e[k] !== 'string') ||
    (e.tool_input !== undefined && !isObject(e.tool_input)) ||
    [e.cwd, input.file_path, input.notebook_path].some(absurd);
  const shape: Shape = wrongType ? 'malformed' : 'event';

  if ((name === 'PreToolUse' || name === 'PostToolUse') && FILE_TOOLS.has(e.tool_name as string)) {
    return { shape, ...fileToolOutcome(e, runnerCwd, env, l) };
  }
  if (name === 'Stop') {
    const cwd = resolve(runnerCwd, typeof e.cwd === 'string' ? e.cwd : '');
    if (!projectRootFor(cwd, env, l)) return { shape, outcome: 'any', why: 'cwd outside the project' };
    // A Stop that is a forced continuation may be released by the loop guard; any other Stop starts a new series.
    return e.stop_hook_active === true
      ? { shape, outcome: 'any', why: 'stop_hook_active: the loop guard may release it' }
      : { shape, outcome: 'block', by: 'stop-fails' };
  }
  if (name === 'UserPromptSubmit') {
    const cwd = resolve(runnerCwd, typeof e.cwd === 'string' ? e.cwd : '');
    return { shape, outcome: projectRootFor(cwd, env, l) ? 'warn' : 'pass' };
  }
  // No error validator can match anything else: a tool other than Write|Edit|MultiEdit, any other event.
  return { shape, outcome: 'pass' };
}
