/**
 * The hook shortcut's record: what a call of the full hook path concluded about calls that no validator can concern,
 * and everything that conclusion stands on. Written by the full path (record.ts), read by the shortcut (answer.ts)
 * before any other module of avp is loaded — so this file, like answer.ts, uses no node: built-in (loading node:fs
 * alone costs more CPU than the shortcut's whole check; bench/hook-cost.ts).
 *
 * It lives beside the hook memo in `$AVP_HOME/cache/hook`, one file per environment, and is trusted like the memo:
 * arbitrary code running as the user could plant one, which the guard's refusal of writes under `$AVP_HOME` stands
 * against (docs/accepted-state.md).
 */
import { CLAUDE_TOOLS } from '../../agents/claude/tools.ts';
import { VERSION } from '../../version.ts';

/** Bumped when the record's shape or what it stands for changes (the avp version is checked too). */
export const SHORTCUT_FORMAT = 2;

/** At most this many calls per record: a session uses a few dozen tools; the oldest are dropped first. */
export const MAX_CALLS = 256;

/** The conclusion, without the calls it covers: a record is extended only while this stays the same. */
export interface ShortcutBasis {
  /** The hook memo's `seen`: the accepted state's and discovery's every path (missing ones folded, record.ts). */
  seen: [string, string][];
  /** The project folder the agent names (`CLAUDE_PROJECT_DIR`): the folder it resolved to (`dev:ino`). */
  root: { dir: string; id: string };
  projectRoot: string;
  /** Where a session is told of acceptances, and the acceptance logs' sizes it must have been told up to. */
  told: { dir: string; project: number; user: number };
  /** The project's session state folder (`$AVP_HOME/sessions/<key>`). */
  sessions: string;
  /** Validators are installed: the call is counted, and only listed calls are answered. */
  installed: boolean;
  /**
   * With validators installed, where the shortcut counts its calls (`.avp/logs/pending-calls`, stats/call-line.ts)
   * and the folder the full path found there: a folder, not a link (`dev:ino`).
   */
  pending?: { dir: string; id: string };
  /** A Stop validator is installed: after a Stop the next call begins a turn, which only the full path does. */
  stopCheck: boolean;
  /** The full path's answer, written as it is. */
  stdout: string;
}

export interface ShortcutFile extends ShortcutBasis {
  format: number;
  version: string;
  /** SHA-256 of the whole environment: a call under any other environment takes the full path. */
  env: string;
  /** The calls covered, each `shortcutCall()`. */
  calls: string[];
}

/** Environment variables the shortcut leaves to the full path (their calls never use it), or ignores (the trace). */
export const FULL_PATH_VARS = ['AVP_SUBAGENT', 'AVP_DISABLE', 'AVP_PROFILE', 'AVP_DEBUG', 'AVP_NO_CACHE'] as const;
const IGNORED_VAR = 'AVP_SHORTCUT_TRACE';

/**
 * File-changing and shell tools: the guard reads their before-tool calls (the files they would change, the command
 * they would run), and session tracking records their after-tool calls. With permission requests, those calls are
 * the full path's alone — the guard's whatever a record says.
 */
const guardedKind = (kind: string) => kind === 'write' || kind === 'edit' || kind === 'shell';

/** Whether the guard reads a Claude Code before-tool call of `tool` (a tool avp does not know is one of kind other). */
export function guardedTool(tool: string): boolean {
  return Object.hasOwn(CLAUDE_TOOLS, tool) && guardedKind(CLAUDE_TOOLS[tool]!.kind);
}

/**
 * Whether a call of this event and tool kind may be recorded at all: never a permission request, nor a before-tool
 * call the guard reads (a file-changing or shell tool); with validators installed, of the other events only an
 * after-tool call of a tool that changes no file avp tracks (session tracking records file tools and shell calls).
 * The rest of the decision is the recorder's (record.ts).
 */
export function recordable(event: string, toolKind: string | undefined, installed: boolean): boolean {
  if (event === 'PermissionRequest') return false;
  if (event === 'PreToolUse') return toolKind !== undefined && !guardedKind(toolKind);
  if (!installed) return true;
  if (event !== 'PostToolUse' && event !== 'PostToolUseFailure') return false;
  return toolKind === undefined || !guardedKind(toolKind);
}

/** A call's key in the record: its event, tool and working folder, as the agent sent them. */
export function shortcutCall(event: string, tool: string | undefined, cwd: string): string {
  return `${event}\0${tool ?? ''}\0${cwd}`;
}

/** SHA-256 of every variable and value (sorted), but the trace switch. */
export function envDigest(env: NodeJS.ProcessEnv): string {
  let all = '';
  const names = Object.keys(env).sort();
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name !== IGNORED_VAR) all += `${name}=${env[name] ?? ''}\0`;
  }
  // The one-shot SHA-256: a CryptoHasher object costs the shortcut ~1 MB more (bench/hook-cost.ts).
  return Bun.SHA256.hash(all, 'hex');
}

/** An absolute POSIX path with nothing to resolve (`//`, `.`, `..`, a trailing `/`): usable as it is spelled. */
function plainAbsolute(path: string): boolean {
  if (!path.startsWith('/') || (path !== '/' && path.endsWith('/'))) return false;
  // String tests, not a regular expression: the shortcut compiles none (each engine feature it wakes costs memory).
  return !path.includes('//') && !`${path}/`.includes('/./') && !`${path}/`.includes('/../');
}

/**
 * avp's home as the shortcut can know it without node:path or node:os: `AVP_HOME`, else `$HOME/.avp`, when spelled
 * plainly. The full path writes a record only where this equals its own `avpHome()`, so a record is never looked for
 * in a folder it could not be in.
 */
export function shortcutHome(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.AVP_HOME || (env.HOME ? `${env.HOME === '/' ? '' : env.HOME}/.avp` : undefined);
  return home && plainAbsolute(home) ? home : undefined;
}

export function shortcutPath(home: string, digest: string): string {
  return `${home}/cache/hook/shortcut-${digest.slice(0, 16)}.json`;
}

/** True for a record of this avp, format and environment. */
export function recordHolds(file: unknown, digest: string): file is ShortcutFile {
  const f = file as Partial<ShortcutFile> | null;
  return (
    !!f &&
    f.format === SHORTCUT_FORMAT &&
    f.version === VERSION &&
    f.env === digest &&
    Array.isArray(f.calls) &&
    Array.isArray(f.seen) &&
    typeof f.stdout === 'string'
  );
}
