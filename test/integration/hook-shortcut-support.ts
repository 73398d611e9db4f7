/** The hook shortcut tests' shared parts: the calls, what the trace says of them, and the calls that bring a record. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { countedCalls as countedCallsOf, pendingCalls as pendingCallsOf } from '../support/counted-calls.ts';
import { runAvp, type AvpRun } from '../support/run-avp.ts';
import { BIN, type Project } from './hook-support.ts';

/** A Read of `rel` in session `s1`: a call no validator that watches only Write/Edit can concern. */
export function readEvent(p: Project, rel = 'src/a.ts', extra: Record<string, unknown> = {}) {
  const file = join(p.root, rel);
  return {
    session_id: 's1',
    transcript_path: join(p.home, 't.jsonl'),
    cwd: p.root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: file },
    tool_response: { type: 'text', file: { filePath: file, content: 'x\n' } },
    tool_use_id: 'toolu_read',
    ...extra,
  };
}

export interface Traced {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
  /** The shortcut answered the call. */
  answered: boolean;
  /** Why it left the call to the full path. */
  why?: string;
}

/** What the trace (`AVP_SHORTCUT_TRACE=1`, which no record depends on) says of a run. */
function withTrace(r: AvpRun & { json: any }): Traced {
  return {
    ...r,
    answered: r.stderr.includes('avp shortcut: answered'),
    why: /avp shortcut: full path \((.*)\)/.exec(r.stderr)?.[1],
  };
}

/** One call with the shortcut's trace on. */
export async function traced(p: Project, event: unknown, env: Record<string, string> = {}): Promise<Traced> {
  return withTrace(await p.hook(event, { AVP_SHORTCUT_TRACE: '1', ...env }));
}

/** `avp hook <args>` under the environment of the project's own calls (so its records apply), the trace on. */
export async function tracedArgs(p: Project, args: string[], event: unknown): Promise<Traced> {
  const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root, AVP_SHORTCUT_TRACE: '1' };
  const r = await runAvp(['hook', ...args], { bin: BIN, cwd: p.root, stdin: `${JSON.stringify(event)}\n`, env });
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return withTrace({ ...r, json });
}

/**
 * The calls that bring a record, once the files are past the racy window: the full path writes the hook memo and
 * then the record; the call after is answered from it. Fails when no call within four is.
 */
export async function untilAnswered(p: Project, event: unknown, env: Record<string, string> = {}): Promise<Traced> {
  const seen: string[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await traced(p, event, env);
    if (r.answered) return r;
    seen.push(r.why ?? r.stderr);
  }
  throw new Error(`the shortcut never answered: ${seen.join(' | ')}`);
}

/** The project's counted calls, oldest first, pending ones included (test/support/counted-calls.ts). */
export const countedCalls = (p: Project) => countedCallsOf(p.root);

/** The calls the shortcut counted that wait for a full-path call at the turn's edge to fold them in. */
export const pendingCalls = (p: Project) => pendingCallsOf(p.root);

/** The shortcut's records (`$AVP_HOME/cache/hook/shortcut-*.json`). */
/** The hook memos in the project's avp home (none before the first is written). */
export function memos(p: Project): string[] {
  const dir = join(p.home, '.avp', 'cache', 'hook');
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith('shortcut-')) : [];
}

export function records(p: Project): string[] {
  const dir = join(p.home, '.avp', 'cache', 'hook');
  return readdirSync(dir)
    .filter((f) => f.startsWith('shortcut-'))
    .map((f) => join(dir, f));
}
