/**
 * The hook shortcut: a Claude Code call that the full hook path already answered — the same event, tool and working
 * folder, under the same environment — is answered again from its record when nothing the answer stands on changed:
 * no validator, config, hook or acceptance (every stat the hook memo took, compared), no managed policy, the project
 * folder still the same folder, no acceptance this session was not told of, no ended turn to begin again. Anything
 * else, and anything this module cannot check, goes to the full path with the input already read.
 *
 * Which calls are recorded is the full path's decision (record.ts): calls no installed validator can concern whatever
 * file they name (a Read, a search, a web fetch, an MCP tool — most of an agent's calls, before the tool runs and
 * after), or any call when no validator is installed — never a permission request or a before-tool call of a
 * file-changing or shell tool (the guard reads those; decided here too, whatever a record says), never such a tool's
 * after-tool call while validators are installed (session tracking records those). The answer is the recorded one;
 * with validators installed the call is counted as the full path counts it, in a file of its own that a full-path
 * call at the turn's edge folds into `.avp/logs/calls-…` (stats/pending-calls.ts). A twin call (the plugin's and the
 * settings' hook at once) answers too: both answer the same, and stats counts one call by its key.
 *
 * Plain loops, not `find`, `map`, `Promise.all`: the engine compiles each of its built-in functions written in
 * JavaScript when a process first calls it (~20 µs each), and this module answers most of an agent's calls. With
 * the loops here, in hook/input.ts and hook/stdin.ts, a call it answers costs ~0.3 ms less (side by side,
 * docs/hook-mode.md).
 *
 * No node: built-in is loaded: this module and what it imports are all the shortcut loads
 * (test/unit/hook/shortcut-imports.test.ts). Counting through node:fs cost ~0.8 ms and ~1.3 MB more on a Read with 50
 * validators installed (side by side, docs/hook-mode.md): its load, and the 16 KB heap blocks it adds take the engine
 * past the point where it starts a thread that pre-faults more of them.
 */
import { systemManagedConfigPath } from '../../config/managed-path.ts';
import { toldFileName } from '../../trust/told-name.ts';
import { safeSegment } from '../../session/segment.ts';
import { checkPathBounds } from '../../os/path-bounds.ts';
import { seenPrint, type StatResult } from '../../os/stat-print.ts';
import { callKey, callLine, pendingName } from '../../stats/call-line.ts';
import type { AvpError } from '../../errors.ts';
import { parseInput } from '../input.ts';
import { readStdin, stdinIsATerminal, stdinTimeout } from '../stdin.ts';
import {
  envDigest,
  FULL_PATH_VARS,
  guardedTool,
  recordHolds,
  shortcutCall,
  shortcutHome,
  shortcutPath,
  type ShortcutFile,
} from './shortcut-file.ts';

/** What the full path gets when the shortcut did not answer: stdin as read (and parsed), or why it could not be. */
export type ReadInput = { text: string; value?: unknown } | { error: AvpError };

export type ShortcutResult = { answered: true } | { answered: false; input?: ReadInput };

/** Answers `avp hook` from its record, or says why not and hands over what it read. */
export async function takeShortcut(argv: string[], env: NodeJS.ProcessEnv): Promise<ShortcutResult> {
  const startedAt = Date.now();
  const trace = env.AVP_SHORTCUT_TRACE === '1';
  const skip = skipped(argv, env);
  if (skip) return declined(trace, skip);
  const input = await readStdin(stdinTimeout(env));
  // Handed over as the full path's error: a second read of a terminal's fd would fail on the first one still waiting.
  if (input === 'terminal') return declined(trace, 'stdin is a terminal', { error: stdinIsATerminal() });
  if ('error' in input) return declined(trace, input.error.message, input);
  let value: unknown;
  try {
    value = parseInput(input.text);
  } catch {
    return declined(trace, 'not an event', input);
  }
  const read = { text: input.text, value };
  const answer = await answerFromRecord(value, env, startedAt);
  if (typeof answer === 'string') return declined(trace, answer, read);
  // As the floor prints: console.log costs ~0.15 ms less here than Bun.write(Bun.stdout) (300 rounds side by side,
  // twice) and prints one string as it is, adding the answer's trailing newline. On a closed pipe both end quietly.
  if (answer.stdout.endsWith('\n')) console.log(answer.stdout.slice(0, -1));
  else {
    try {
      await Bun.write(Bun.stdout, answer.stdout);
    } catch {
      // the agent closed the pipe: there is no one left to answer
    }
  }
  if (trace) await Bun.write(Bun.stderr, 'avp shortcut: answered\n');
  return { answered: true };
}

async function declined(trace: boolean, why: string, input?: ReadInput): Promise<ShortcutResult> {
  if (trace) await Bun.write(Bun.stderr, `avp shortcut: full path (${why})\n`);
  return input ? { answered: false, input } : { answered: false };
}

/** Why this command line or environment is the full path's alone (stdin is then left unread). */
function skipped(argv: string[], env: NodeJS.ProcessEnv): string | undefined {
  if (process.platform === 'win32') return 'Windows';
  const claude = argv.length === 0 || argv.join(' ') === '--agent claude' || argv.join(' ') === '--agent=claude';
  if (!claude) return 'not Claude Code, or flags';
  if (env.AVP_SHORTCUT === '0') return 'AVP_SHORTCUT=0';
  for (let i = 0; i < FULL_PATH_VARS.length; i++) {
    const name = FULL_PATH_VARS[i]!;
    if (env[name] !== undefined && env[name] !== '') return name;
  }
  if (!env.CLAUDE_PROJECT_DIR) return 'no CLAUDE_PROJECT_DIR';
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The recorded answer, or why the call is the full path's. */
async function answerFromRecord(
  value: unknown,
  env: NodeJS.ProcessEnv,
  startedAt: number,
): Promise<{ stdout: string } | string> {
  if (!isObject(value)) return 'not an event';
  const { hook_event_name: event, session_id: session, cwd, tool_name: tool, tool_input: toolInput } = value;
  if (typeof event !== 'string') return 'no event name';
  if (event === 'PermissionRequest') return 'the guard reads this event';
  if (typeof session !== 'string' || !session) return 'no session';
  if (typeof cwd !== 'string') return 'no cwd';
  if (tool !== undefined && typeof tool !== 'string') return 'tool_name is not a string';
  // Decided here, not by the record: a planted one must not answer for the guard.
  if (event === 'PreToolUse' && (tool === undefined || guardedTool(tool))) return 'the guard reads this event';
  if (toolInput !== undefined && !isObject(toolInput)) return 'tool_input is not an object';
  if (!boundedPaths(toolInput)) return 'a path out of bounds';
  const home = shortcutHome(env);
  if (!home) return 'avp home not plainly spelled';
  const digest = envDigest(env);
  const file = readJson(shortcutPath(home, digest));
  if (!recordHolds(file, digest)) return 'no record for this environment';
  if (file.calls.indexOf(shortcutCall(event, tool, cwd)) < 0) return 'call not recorded';
  if (file.installed && !file.pending) return 'no folder to count in';
  const changed = await firstChange(file, env, session);
  if (changed) return changed;
  // With validators installed the call is counted, as a file of its own (stats/call-line.ts): no node:fs for an append.
  if (file.pending) {
    const line = callLine(event, callKey({ event, raw: value }, startedAt));
    const wrote = await Bun.write(`${file.pending.dir}/${pendingName()}`, line, { createPath: false }).catch(() => 0);
    if (!wrote) return 'the call could not be counted';
  }
  return { stdout: file.stdout };
}

const PATH_KEYS = ['file_path', 'notebook_path'];

/** The paths a file tool names must be ones the full path would not refuse (it bounds them before anything else). */
function boundedPaths(toolInput: Record<string, unknown> | undefined): boolean {
  try {
    for (let i = 0; i < PATH_KEYS.length; i++) {
      const key = PATH_KEYS[i]!;
      const path = toolInput?.[key];
      if (typeof path === 'string') checkPathBounds(path, key);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * What changed since the record was written (undefined: nothing), from Bun's own stats, all at once (node:fs would
 * cost more to load than they take).
 */
async function firstChange(file: ShortcutFile, env: NodeJS.ProcessEnv, session: string): Promise<string | undefined> {
  const told = readJson(`${file.told.dir}/${toldFileName(session)}`) as Record<string, unknown> | undefined;
  if (!told) return 'session not told yet';
  if (told.project !== file.told.project || told.user !== file.told.user) return 'acceptances not told';
  const root = env.CLAUDE_PROJECT_DIR!;
  if (root !== file.root.dir) return 'root';
  // A managed policy is read live by the full path, never from a record (one planted could leave it out).
  const policy = env.AVP_MANAGED_CONFIG
    ? [systemManagedConfigPath(), env.AVP_MANAGED_CONFIG]
    : [systemManagedConfigPath()];
  for (let i = 0; i < policy.length; i++) if (!policy[i]!.startsWith('/')) return 'a managed policy';
  // Stated as: the root, the folder to count in, the policies, then every path the record saw (and, with a Stop
  // validator, the marker of an ended turn), all asked at once.
  const paths = [root];
  if (file.pending) paths.push(file.pending.dir);
  for (let i = 0; i < policy.length; i++) paths.push(policy[i]!);
  const first = paths.length;
  for (let i = 0; i < file.seen.length; i++) paths.push(file.seen[i]![0]);
  const stopped = file.stopCheck ? `${file.sessions}/${safeSegment(session)}/turn/stopped` : undefined;
  if (stopped) paths.push(stopped);
  const stats = await statAll(paths);
  for (let i = file.pending ? 2 : 1; i < first; i++) if (isFile(stats[i]!)) return 'a managed policy';
  if (identity(stats[0]!) !== file.root.id) return 'root';
  // Where the call is counted must still be the folder the full path found (a link put in its place leads elsewhere).
  if (file.pending && identity(stats[1]!) !== file.pending.id) return 'the folder to count in';
  for (let i = 0; i < file.seen.length; i++)
    if (seenPrint(stats[first + i]!) !== file.seen[i]![1]) return `changed: ${file.seen[i]![0]}`;
  if (stopped && stats[paths.length - 1] !== null) return 'a turn ended';
  return undefined;
}

/**
 * Bun's stats of `paths`, all asked at once (node:fs would cost more to load than they take), then taken in order: a
 * stat, null when missing, 'error' when it cannot be taken. No `Promise.all` (see "Plain loops" above) and no closure
 * per path: with 50 catalog copies that is 366 of them.
 */
async function statAll(paths: string[]): Promise<StatResult[]> {
  const asked: Promise<unknown>[] = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    asked[i] = Bun.file(paths[i]!).stat();
    // Handled now, read below: a missing path's rejection must not count as unhandled while an earlier one is awaited.
    asked[i]!.catch(ignore);
  }
  const out: StatResult[] = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    try {
      out[i] = (await asked[i]) as StatResult;
    } catch (e) {
      out[i] = (e as { code?: string })?.code === 'ENOENT' ? null : 'error';
    }
  }
  return out;
}

const ignore = () => {};

/** A file, as the full path tells a managed policy from anything else at its place (config/managed.ts). */
const isFile = (s: StatResult) => !!s && s !== 'error' && s.isFile();

/** The folder a stat names, whatever path led there: device and inode. */
const identity = (s: { dev: number; ino: number } | null | 'error') =>
  s && s !== 'error' ? `${s.dev}:${s.ino}` : undefined;

/**
 * A small JSON file, read synchronously through a memory map (Bun's only synchronous read; an asynchronous read costs
 * more here than the whole parse). Both files read so are only ever replaced whole (renamed into place), never
 * truncated in place, which a map must not see. Undefined when missing or not JSON.
 */
function readJson(path: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(Bun.mmap(path)));
  } catch {
    return undefined;
  }
}
