/**
 * Claude Code → HookEvent. Synchronous and dependency-free: it runs on every hook call before avp knows whether any
 * validator matches, so the only disk it touches is the few paths of the event (real paths: cwd, the project dir, the
 * named file — a symlink must not hide what a change touches) and it never loads a library. Everything that costs in
 * proportion to the input (applying edits, reading the current file, a diff algorithm) is done later by
 * `completeFileChanges`, only when validators will actually see the event.
 */
import { resolve } from 'node:path';
import { AvpError } from '../errors.ts';
import type { FileChange, HookEvent } from '../event.ts';
import { locateProject, relativize } from '../paths.ts';
import { checkPathBounds, PathResolver, type RealPath } from '../real-paths.ts';
import { diffForCreate, diffFromHunks, isPatchHunks } from '../hosts/diff.ts';

/** Tools whose input names a file they change. */
const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** Events that carry `tool_name` / `tool_input`. */
const TOOL_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
]);

/** The input field that Claude Code's `matcher` (and AVP's `triggerMatcher`) is compared with, per lifecycle event. */
const MATCHER_FIELD: Record<string, string> = {
  SessionStart: 'source',
  SessionEnd: 'reason',
  PreCompact: 'trigger',
  Setup: 'trigger',
  Notification: 'notification_type',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
};

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function badInput(message: string): AvpError {
  return new AvpError('hook-input', message, {
    fix: 'avp hook reads one Claude Code hook event as a JSON object on stdin (see docs/hook-mode.md); run it from a hook entry written by `avp init`.',
  });
}

/**
 * Normalizes one Claude Code hook input. Unknown events and unknown fields pass through (`raw` keeps everything);
 * only inputs that cannot be an event at all (not an object, no `hook_event_name`, wrongly typed core fields) throw
 * `AvpError('hook-input')`.
 */
export function normalizeClaudeEvent(input: unknown, env: NodeJS.ProcessEnv = process.env): HookEvent {
  const raw = obj(input);
  if (!raw)
    throw badInput(
      `the hook input is ${Array.isArray(input) ? 'an array' : input === null ? 'null' : `a ${typeof input}`}, not a JSON object`,
    );
  const event = raw.hook_event_name;
  if (typeof event !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*$/.test(event)) {
    throw badInput(
      event === undefined
        ? 'the hook input has no "hook_event_name"'
        : '"hook_event_name" must be an event name such as "PostToolUse"',
    );
  }
  for (const key of ['session_id', 'cwd', 'tool_name'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') throw badInput(`"${key}" must be a string`);
  }
  if (raw.tool_input !== undefined && !obj(raw.tool_input)) throw badInput('"tool_input" must be an object');
  const tool = TOOL_EVENTS.has(event) ? str(raw.tool_name) : undefined;
  const toolInput = obj(raw.tool_input);
  const givenCwd = resolve(bounded(str(raw.cwd) || process.cwd(), '"cwd"'));
  const named = namedFile(tool, toolInput);
  const resolver = new PathResolver();
  const cwd = resolver.resolve(givenCwd).path;
  // Relative to the cwd Claude Code gave; its real form names the same place.
  const file =
    named !== undefined ? resolver.resolve(bounded(resolve(cwd, named), '"tool_input.file_path"')) : undefined;
  let location;
  try {
    location = locateProject(cwd, file?.path, resolver, env, named !== undefined ? resolve(cwd, named) : undefined);
  } catch (e) {
    throw e instanceof AvpError ? badInput(e.message) : e;
  }
  const projectRoot = location.root;
  const field = MATCHER_FIELD[event];
  // Lifecycle events match on their own field; tool events on the tool name (as Claude Code's `matcher` does).
  const matcherValue = field ? str(raw[field]) : tool;
  const sessionId = str(raw.session_id) || env.CLAUDE_CODE_SESSION_ID || undefined;
  const hookEvent: HookEvent = {
    agent: 'claude',
    event,
    cwd,
    projectRoot,
    files:
      tool && toolInput && file && FILE_TOOLS.has(tool)
        ? [fileChange(event, tool, toolInput, raw.tool_response, file, resolve(givenCwd, named!), projectRoot)]
        : [],
    raw,
  };
  if (!location.isProject) hookEvent.stateless = true;
  if (tool !== undefined) hookEvent.tool = tool;
  if (toolInput) hookEvent.toolInput = toolInput;
  if (raw.tool_response !== undefined) hookEvent.toolResponse = raw.tool_response;
  if (sessionId) hookEvent.sessionId = sessionId;
  if (matcherValue !== undefined) hookEvent.matcherValue = matcherValue;
  if (typeof raw.stop_hook_active === 'boolean') hookEvent.stopHookActive = raw.stop_hook_active;
  return hookEvent;
}

/** A path from the input, refused as bad input when no file can have it (a 1 MB cwd must not cost a walk). */
function bounded(path: string, what: string): string {
  try {
    checkPathBounds(path, what);
  } catch (e) {
    throw badInput((e as Error).message);
  }
  return path;
}

/** The file a tool input names (`file_path`, or `notebook_path` for NotebookEdit and notebook tools). */
function namedFile(tool: string | undefined, input: Record<string, unknown> | undefined): string | undefined {
  if (!tool || !input) return undefined;
  if (tool === 'NotebookEdit') return str(input.notebook_path) || undefined;
  if (FILE_TOOLS.has(tool)) return str(input.file_path) || undefined;
  return [input.file_path, input.notebook_path].find((p): p is string => typeof p === 'string' && p.length > 0);
}

/**
 * The change a file tool made (Post*) or is about to make (Pre*, PermissionRequest), from the input and response
 * alone. `file` is the real path; `given` the absolute path as the input named it.
 */
function fileChange(
  event: string,
  tool: string,
  input: Record<string, unknown>,
  response: unknown,
  file: RealPath,
  given: string,
  projectRoot: string,
): FileChange {
  const path = file.path;
  const { relPath, inProject } = relativize(path, projectRoot, file.caseInsensitive);
  const res = obj(response);
  // Only a successful PostToolUse has a response describing the result; elsewhere the change is the proposal.
  const done = event === 'PostToolUse' && res !== undefined;
  const original =
    done && (typeof res.originalFile === 'string' || res.originalFile === null)
      ? (res.originalFile as string | null)
      : undefined;
  const hunks =
    done && isPatchHunks(res.structuredPatch) && res.structuredPatch.length ? res.structuredPatch : undefined;
  const change: FileChange = { path, relPath, inProject, kind: 'update' };
  if (given !== path) change.namedPath = given;
  if (file.caseInsensitive) change.caseInsensitive = true;

  if (tool === 'Write') {
    const content = str(input.content);
    const created = done ? res.type === 'create' || original === null : undefined;
    if (created === true) change.kind = 'create';
    if (original !== undefined) change.before = original;
    if (content !== undefined) change.after = content;
    if (created && content !== undefined) change.diff = diffForCreate(relPath, content);
    else if (hunks) change.diff = diffFromHunks(relPath, hunks);
    return change;
  }
  if (tool === 'Edit' || tool === 'MultiEdit') {
    // `after` is not rebuilt here: replacements can grow the text exponentially (replace_all doubling), so that
    // waits until a validator wants this file, and then runs bounded (completeFileChanges).
    if (typeof original === 'string') change.before = original;
    if (hunks) change.diff = diffFromHunks(relPath, hunks);
    return change;
  }
  // NotebookEdit: the notebook is JSON; validators care about the cell's source, so the diff is the cell's.
  const source = str(input.new_source);
  if (source !== undefined) {
    const cell = str(input.cell_id) ? ` (cell ${str(input.cell_id)})` : '';
    change.diff =
      input.edit_mode === 'delete'
        ? `--- a/${relPath}${cell}\n+++ b/${relPath}${cell}\n@@ cell deleted @@\n`
        : diffForCreate(relPath, source).replace(
            /^--- \/dev\/null\n\+\+\+ b\/(.*)\n/,
            `--- a/$1${cell}\n+++ b/$1${cell}\n`,
          );
  }
  return change;
}
