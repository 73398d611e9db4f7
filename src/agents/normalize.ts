/**
 * An agent's hook input → HookEvent, driven by the adapter's tables (events → triggers, tools → canonical tools).
 * Synchronous and dependency-free: it runs on every hook call before avp knows whether any validator matches, so the
 * only disk it touches is the few paths of the event (real paths: cwd, the project dir, the named files — a symlink
 * must not hide what a change touches) and it never loads a library. Everything that costs in proportion to the
 * input (applying edits or patches, reading the current file, a diff algorithm) is done later by
 * `completeFileChanges`, only when validators will actually see the event.
 */
import { resolve } from 'node:path';
import { AvpError } from '../errors.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import { TOOL_TRIGGERS } from '../protocol/trigger.ts';
import { diffForCreate, diffFromHunks, isPatchHunks, setCreateDiff, type PatchHunk } from '../file-changes/diff.ts';
import { locateProject, relativize } from '../paths.ts';
import { checkPathBounds, PathResolver, type RealPath } from '../os/real-paths.ts';
import { parsePatch, patchFromShell, sectionDiff, type PatchOp } from '../file-changes/patch.ts';
import type { AgentAdapter, ToolMapping } from './types.ts';

/** What a tool's response says about the file it changed (each agent words it differently). */
export interface ResponseFacts {
  /** Content before (`null`: the file did not exist). */
  before?: string | null;
  after?: string;
  created?: boolean;
  hunks?: PatchHunk[];
}

/** The part of an adapter the normalizer reads, plus the agent's input quirks. */
export interface NormalizeSpec extends Pick<AgentAdapter, 'name' | 'displayName' | 'events' | 'tools'> {
  projectDirVars: readonly string[];
  /** The variable holding the session id when the input has none. */
  sessionEnv?: string;
  /** The input field with the agent's last message at a stop. */
  lastMessageField: string;
  /** The input field with the agent's id of the user's turn. */
  turnIdField?: string;
  /** The agent's input field names → Claude Code's (Droid documents camelCase variants). */
  fieldAliases?: Readonly<Record<string, string>>;
  /** The facts of a successful file tool's response. */
  response(response: unknown): ResponseFacts | undefined;
  /** A shell command `apply_patch <<'PATCH' …` is a patch (Codex without a patch tool). */
  shellPatches?: boolean;
  /** The agent's loop signal; default: the input's boolean `stop_hook_active`. */
  stopHookActive?(raw: Record<string, unknown>, trigger: string): boolean | undefined;
}

/** Events that carry `tool_name` / `tool_input`: the tool triggers, and Claude Code's PermissionDenied (no trigger). */
const TOOL_EVENTS = new Set<string>([...TOOL_TRIGGERS, 'PermissionDenied']);

/** The input field that `triggerMatcher` is compared with, per lifecycle trigger. */
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
export const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Input that is not an event: `hook-input`, in the agent's name, with how avp hook must be run. */
export function badInput(spec: Pick<NormalizeSpec, 'name' | 'displayName'>, message: string): AvpError {
  return new AvpError('hook-input', message, {
    fix: `avp hook --agent ${spec.name} reads one ${spec.displayName} hook event as a JSON object on stdin (see docs/agents.md); run it from a hook entry written by \`avp init\`.`,
  });
}

/** A path from the input, refused as bad input when no file can have it (a 1 MB cwd must not cost a walk). */
function bounded(spec: NormalizeSpec, path: string, what: string): string {
  try {
    checkPathBounds(path, what);
  } catch (e) {
    throw badInput(spec, (e as Error).message);
  }
  return path;
}

/** A file a tool names, before real paths: as given (absolute) and what the change is. */
interface Named {
  given: string;
  op?: PatchOp;
}

/**
 * Normalizes one hook input of the agent `spec` describes. Unknown events and fields pass through (`raw` keeps
 * everything); only inputs that cannot be an event at all (not an object, no event name, wrongly typed core fields)
 * throw `AvpError('hook-input')`.
 */
export function normalizeWith(spec: NormalizeSpec, input: unknown, env: NodeJS.ProcessEnv): HookEvent {
  const given = obj(input);
  if (!given)
    throw badInput(
      spec,
      `the hook input is ${Array.isArray(input) ? 'an array' : input === null ? 'null' : `a ${typeof input}`}, not a JSON object`,
    );
  const raw = spec.fieldAliases ? withAliases(given, spec.fieldAliases) : given;
  const agentEvent = raw.hook_event_name;
  if (typeof agentEvent !== 'string' || !/^[A-Za-z][A-Za-z0-9_.]*$/.test(agentEvent)) {
    throw badInput(
      spec,
      agentEvent === undefined
        ? 'the hook input has no "hook_event_name"'
        : '"hook_event_name" must be an event name such as "PostToolUse"',
    );
  }
  for (const key of ['session_id', 'cwd', 'tool_name'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') throw badInput(spec, `"${key}" must be a string`);
  }
  if (raw.tool_input !== undefined && !obj(raw.tool_input)) throw badInput(spec, '"tool_input" must be an object');
  const event = spec.events[agentEvent] ?? agentEvent;
  const agentTool = TOOL_EVENTS.has(event) ? str(raw.tool_name) : undefined;
  const mapping: ToolMapping | undefined = agentTool !== undefined ? spec.tools[agentTool] : undefined;
  const rawInput = obj(raw.tool_input);
  const toolInput = rawInput && mapping?.input ? mapping.input(rawInput) : rawInput;
  const givenCwd = resolve(bounded(spec, str(raw.cwd) || process.cwd(), '"cwd"'));
  const resolver = new PathResolver();
  const cwd = resolver.resolve(givenCwd).path;

  // The files the call names: a patch's, or the one `file_path` of a file tool.
  let kind = mapping?.kind ?? (agentTool !== undefined ? 'other' : undefined);
  let tool = mapping?.tool ?? agentTool;
  let ops: PatchOp[] | undefined;
  const patchText =
    mapping?.patchField && rawInput
      ? // The documented field, else any string field holding a patch (field names vary across versions).
        (str(rawInput[mapping.patchField]) ??
        Object.values(rawInput).find((v): v is string => typeof v === 'string' && v.includes('*** Begin Patch')))
      : spec.shellPatches && kind === 'shell' && typeof toolInput?.command === 'string'
        ? patchFromShell(toolInput.command)
        : undefined;
  if (patchText !== undefined) ops = parsePatch(patchText);
  const named: Named[] = [];
  if (ops) {
    for (const op of ops)
      named.push({ given: resolve(cwd, bounded(spec, op.moveTo ?? op.path, 'a patched path')), op });
    kind = 'edit';
    tool = ops.length && ops.every((o) => o.kind === 'add') ? 'Write' : 'Edit';
  } else if ((kind === 'write' || kind === 'edit') && toolInput) {
    const path = namedFile(tool, toolInput);
    if (path !== undefined) named.push({ given: resolve(cwd, bounded(spec, path, '"tool_input.file_path"')) });
  }
  const real = named.map((n) => resolver.resolve(n.given));
  let location;
  try {
    location = locateProject(cwd, real[0]?.path, resolver, env, named[0]?.given, spec.projectDirVars);
  } catch (e) {
    throw e instanceof AvpError ? badInput(spec, e.message) : e;
  }
  const projectRoot = location.root;
  const done = event === 'PostToolUse' ? spec.response(raw.tool_response) : undefined;
  const files = named.map((n, i) =>
    n.op
      ? patchChange(n.op, real[i]!, n.given, projectRoot, resolver, cwd)
      : fileChange(event, tool!, toolInput!, done, real[i]!, n.given, projectRoot),
  );
  const field = MATCHER_FIELD[event];
  // Lifecycle events match on their own field; tool events on the tool name (as Claude Code's `matcher` does).
  const matcherValue = field ? str(raw[field]) : tool;
  const sessionId = str(raw.session_id) || (spec.sessionEnv ? env[spec.sessionEnv] : undefined) || undefined;
  const hookEvent: HookEvent = { agent: spec.name, event, cwd, projectRoot, files, raw };
  if (agentEvent !== event) hookEvent.agentEvent = agentEvent;
  if (!location.isProject) hookEvent.stateless = true;
  if (tool !== undefined) hookEvent.tool = tool;
  if (agentTool !== undefined && agentTool !== tool) hookEvent.agentTool = agentTool;
  if (ops?.some((o) => o.kind === 'add') && tool === 'Edit') hookEvent.toolAliases = ['Write'];
  if (kind !== undefined) hookEvent.toolKind = kind;
  if (toolInput) hookEvent.toolInput = toolInput;
  if (raw.tool_response !== undefined) hookEvent.toolResponse = raw.tool_response;
  if (ops && spec.shellPatches && mapping?.kind === 'shell' && event === 'PreToolUse') {
    // Codex runs such a patch with no PostToolUse: its PostToolUse validators judge it now.
    hookEvent.alsoTrigger = 'PostToolUse';
  }
  const text = (k: string) => str(raw[k]);
  const extra: Array<[keyof HookEvent, string | undefined]> = [
    ['sessionId', sessionId],
    ['matcherValue', matcherValue],
    ['toolUseId', text('tool_use_id')],
    ['turnId', spec.turnIdField ? text(spec.turnIdField) : undefined],
    ['prompt', text('prompt')],
    ['lastMessage', text(spec.lastMessageField)],
    ['error', text('error')],
    ['message', text('message')],
    ['subagentId', text('agent_id') || undefined],
    ['subagentType', text('agent_type')],
  ];
  for (const [k, v] of extra) if (v !== undefined) (hookEvent as unknown as Record<string, unknown>)[k] = v;
  const active = spec.stopHookActive
    ? spec.stopHookActive(raw, event)
    : typeof raw.stop_hook_active === 'boolean'
      ? raw.stop_hook_active
      : undefined;
  if (active !== undefined) hookEvent.stopHookActive = active;
  return hookEvent;
}

function withAliases(raw: Record<string, unknown>, aliases: Readonly<Record<string, string>>): Record<string, unknown> {
  const out = { ...raw };
  for (const [from, to] of Object.entries(aliases)) if (out[to] === undefined && from in raw) out[to] = raw[from];
  return out;
}

/** The file a tool input names (`file_path`, or `notebook_path` for NotebookEdit and notebook tools). */
function namedFile(tool: string | undefined, input: Record<string, unknown>): string | undefined {
  if (tool === 'NotebookEdit') return str(input.notebook_path) || undefined;
  return str(input.file_path) || undefined;
}

/** Claude Code's PostToolUse response of a file tool: `originalFile`, `structuredPatch`, `type: "create"`. */
export function claudeResponse(response: unknown): ResponseFacts | undefined {
  const res = obj(response);
  if (!res) return undefined;
  const facts: ResponseFacts = {};
  if (typeof res.originalFile === 'string' || res.originalFile === null) facts.before = res.originalFile;
  if (isPatchHunks(res.structuredPatch) && res.structuredPatch.length) facts.hunks = res.structuredPatch;
  if (res.type === 'create' || facts.before === null) facts.created = true;
  return facts;
}

/**
 * The response of a Gemini-family file tool (Gemini CLI's AfterTool, Qwen Code's PostToolUse): `tool_response` is
 * `{llmContent, returnDisplay}` and a file tool's `returnDisplay` has the contents before and after.
 */
export function displayResponse(response: unknown): ResponseFacts | undefined {
  const display = obj(obj(response)?.returnDisplay);
  if (!display) return undefined;
  const facts: ResponseFacts = {};
  if (display.isNewFile === true) {
    facts.created = true;
    facts.before = null;
  } else if (typeof display.originalContent === 'string') facts.before = display.originalContent;
  if (typeof display.newContent === 'string') facts.after = display.newContent;
  return facts;
}

/** One file of a patch: what it will be (PreToolUse) or was (PostToolUse) made into. */
function patchChange(
  op: PatchOp,
  file: RealPath,
  given: string,
  projectRoot: string,
  resolver: PathResolver,
  cwd: string,
): FileChange {
  const { relPath, inProject } = relativize(file.path, projectRoot, file.caseInsensitive);
  const change: FileChange = { path: file.path, relPath, inProject, kind: 'update' };
  if (given !== file.path) change.namedPath = given;
  if (file.caseInsensitive) change.caseInsensitive = true;
  if (op.kind === 'add') {
    change.kind = 'create';
    change.after = op.body;
    change.diff = diffForCreate(relPath, op.body);
  } else if (op.kind === 'delete') {
    change.kind = 'delete';
    change.after = null;
  } else {
    change.patch = op.body;
    if (op.moveTo) change.movedFrom = resolver.resolve(resolve(cwd, op.path)).path;
    change.diff = sectionDiff(relPath, op.body);
  }
  return change;
}

/**
 * The change a file tool made (Post*) or is about to make (Pre*, PermissionRequest), from the canonical input and
 * the response's facts alone. `file` is the real path; `given` the absolute path as the input named it.
 */
function fileChange(
  event: string,
  tool: string,
  input: Record<string, unknown>,
  done: ResponseFacts | undefined,
  file: RealPath,
  given: string,
  projectRoot: string,
): FileChange {
  const path = file.path;
  const { relPath, inProject } = relativize(path, projectRoot, file.caseInsensitive);
  // Only a successful PostToolUse has a response describing the result; elsewhere the change is the proposal.
  const original = done?.before;
  const hunks = done?.hunks;
  const change: FileChange = { path, relPath, inProject, kind: 'update' };
  if (given !== path) change.namedPath = given;
  if (file.caseInsensitive) change.caseInsensitive = true;

  if (tool === 'Write') {
    const content = str(input.content) ?? done?.after;
    const created = done ? done.created === true : undefined;
    if (created === true) change.kind = 'create';
    if (original !== undefined) change.before = original;
    if (content !== undefined) change.after = content;
    if (created && content !== undefined) setCreateDiff(change, relPath, content);
    else if (hunks) change.diff = diffFromHunks(relPath, hunks);
    return change;
  }
  if (tool !== 'NotebookEdit') {
    // `after` is not rebuilt here: replacements can grow the text exponentially (replace_all doubling), so that
    // waits until a validator wants this file, and then runs bounded (completeFileChanges).
    if (typeof original === 'string') change.before = original;
    if (done?.after !== undefined) change.after = done.after;
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
