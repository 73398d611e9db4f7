/**
 * Cursor. Hooks in `.cursor/hooks.json` or `~/.cursor/hooks.json` (`version: 1`, flat `{command, timeout}` entries
 * per event, timeouts in seconds). Input: `hook_event_name`, `conversation_id`, `generation_id`,
 * `workspace_roots[]` and each event's own fields — `command`/`cwd` (shell), `file_path`/`content` (read),
 * `file_path`/`edits[]` (afterFileEdit), `tool_name`/`tool_input` (preToolUse, MCP), `status`/`loop_count` (stop).
 *
 * Answers: the `before*` events and `preToolUse` refuse with `permission: "deny"` (`agent_message` for the model,
 * `user_message` for the user); `beforeSubmitPrompt` with `continue: false`; `stop` sends the agent back with
 * `followup_message` (Cursor allows at most 5, `loop_count` says how many already ran). `afterFileEdit`,
 * `afterShellExecution` and `postToolUse` only observe: an edit cannot be refused after it was made, so file tools are
 * judged at `preToolUse` (PostToolUse validators too) and the Stop validators see the turn's files at `stop`. An edit
 * that never passed `preToolUse` is judged at `afterFileEdit` and what blocks is carried to the next blocking point
 * and the `stop` (hook/carry.ts: the engine does this for any adapter whose PostToolUse cannot refuse).
 *
 * Fail closed: exit 2 refuses; avp's refusable entries carry `failClosed: true` so a crash or a timeout refuses too.
 */
import type { HookEvent } from '../../protocol/event.ts';
import { jsonAnswer } from '../claude-shape.ts';
import { obj, type NormalizeSpec } from '../normalize.ts';
import { defined, judgePostAtPre, normalizeReshaped, pick, str, type Raw } from '../reshape.ts';
import { projectAndUserFile, underHome } from '../install-paths.ts';
import type { AgentAnswer, Decision, EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

const EVENTS: Record<string, string> = {
  preToolUse: 'PreToolUse',
  beforeShellExecution: 'PreToolUse',
  beforeMCPExecution: 'PreToolUse',
  beforeReadFile: 'PreToolUse',
  postToolUse: 'PostToolUse',
  afterFileEdit: 'PostToolUse',
  afterShellExecution: 'PostToolUse',
  afterMCPExecution: 'PostToolUse',
  beforeSubmitPrompt: 'UserPromptSubmit',
  stop: 'Stop',
  subagentStop: 'SubagentStop',
  sessionStart: 'SessionStart',
  sessionEnd: 'SessionEnd',
  preCompact: 'PreCompact',
};

/** The events whose entries refuse on a crash or timeout (`failClosed: true`). */
const REFUSING = new Set(['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']);

const fileInput = (i: Raw): Raw =>
  defined({
    ...i,
    file_path: pick(i, 'file_path', 'path', 'filePath', 'target_file'),
    content: pick(i, 'content', 'contents', 'file_text'),
    old_string: pick(i, 'old_string', 'old_str', 'oldString'),
    new_string: pick(i, 'new_string', 'new_str', 'newString'),
  });

const TOOLS: Record<string, ToolMapping> = {
  Shell: { tool: 'Bash', kind: 'shell' },
  Write: { tool: 'Write', kind: 'write', input: fileInput },
  Edit: { tool: 'Edit', kind: 'edit', input: fileInput },
  StrReplace: { tool: 'Edit', kind: 'edit', input: fileInput },
  MultiEdit: { tool: 'MultiEdit', kind: 'edit', input: fileInput },
  // afterFileEdit's edits, as one multi-edit of the file.
  FileEdit: { tool: 'MultiEdit', kind: 'edit' },
  Delete: { tool: 'Delete', kind: 'other' },
  Read: { tool: 'Read', kind: 'read', input: fileInput },
  Grep: { tool: 'Grep', kind: 'read' },
  Glob: { tool: 'Glob', kind: 'read' },
  Task: { tool: 'Task', kind: 'other' },
};

const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: false },
  UserPromptSubmit: { stop: 'block', context: false },
  Stop: { stop: 'block', context: false },
  SessionStart: { stop: false, context: true },
};

/** MCP input arrives as a JSON string. */
function jsonObject(v: unknown): Raw | undefined {
  if (typeof v !== 'string') return obj(v);
  try {
    return obj(JSON.parse(v));
  } catch {
    return { value: v };
  }
}

function reshape(raw: Raw): Raw {
  const name = str(raw.hook_event_name);
  const roots = Array.isArray(raw.workspace_roots) ? raw.workspace_roots.filter((r) => typeof r === 'string') : [];
  const base = {
    hook_event_name: name,
    session_id: pick(raw, 'conversation_id', 'session_id'),
    cwd: pick(raw, 'cwd') ?? roots[0],
    prompt: str(raw.prompt),
  };
  if (name === 'beforeShellExecution' || name === 'afterShellExecution')
    return defined({ ...base, tool_name: 'Shell', tool_input: { command: raw.command }, tool_response: raw.output });
  if (name === 'beforeReadFile')
    return defined({ ...base, tool_name: 'Read', tool_input: defined({ file_path: raw.file_path }) });
  if (name === 'afterFileEdit') {
    const edits = Array.isArray(raw.edits) ? raw.edits : [];
    return defined({ ...base, tool_name: 'FileEdit', tool_input: { file_path: raw.file_path, edits } });
  }
  if (name === 'beforeMCPExecution' || name === 'afterMCPExecution') {
    const server = pick(raw, 'server', 'server_name') ?? 'mcp';
    const tool = pick(raw, 'tool_name') ?? 'tool';
    return defined({ ...base, tool_name: `mcp__${server}__${tool}`, tool_input: jsonObject(raw.tool_input) });
  }
  return defined({
    ...base,
    tool_name: str(raw.tool_name),
    tool_input: jsonObject(raw.tool_input),
    tool_response: raw.tool_output ?? raw.tool_response,
    tool_use_id: str(raw.tool_use_id),
    last_assistant_message: pick(raw, 'text', 'last_assistant_message'),
    // Cursor counts its own automatic follow-ups: the first stop of a turn has loop_count 0.
    stop_hook_active: typeof raw.loop_count === 'number' ? raw.loop_count > 0 : undefined,
  });
}

const SPEC: NormalizeSpec = {
  name: 'cursor',
  displayName: 'Cursor',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: ['CURSOR_PROJECT_DIR'],
  lastMessageField: 'last_assistant_message',
  response: () => undefined,
};

export function cursorDocument(event: HookEvent, d: Decision): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const refuse = d.kind === 'deny' || d.kind === 'block';
  const agentEvent = event.agentEvent ?? event.event;
  if (event.event === 'Stop') {
    if (refuse && d.reason) out.followup_message = d.reason;
  } else if (event.event === 'UserPromptSubmit') {
    out.continue = !refuse;
    if (refuse) out.user_message = d.reason ?? '';
  } else if (event.event === 'PreToolUse') {
    out.permission = refuse ? 'deny' : 'allow';
    if (refuse) {
      out.agent_message = d.reason ?? '';
      out.user_message = d.userMessage ?? d.reason ?? '';
    }
    // preToolUse reads the permission and, in newer Cursor versions, `decision` + `reason`.
    if (agentEvent === 'preToolUse' && refuse) Object.assign(out, { decision: 'deny', reason: d.reason ?? '' });
  }
  if (!refuse && d.userMessage !== undefined) out.user_message = d.userMessage;
  if (d.context !== undefined && ABILITIES[event.event]?.context) out.additional_context = d.context;
  return out;
}

const home = underHome('.cursor');

const cursor = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  normalize: (input, env) => judgePostAtPre(normalizeReshaped(SPEC, reshape, input, env)),
  render: (event, d): AgentAnswer => jsonAnswer(cursorDocument(event, d)),
  install: {
    ...projectAndUserFile('.cursor', home, 'hooks.json'),
    timeoutUnit: 'seconds',
    events: [
      'preToolUse',
      'beforeShellExecution',
      'beforeMCPExecution',
      'beforeReadFile',
      'afterFileEdit',
      'afterShellExecution',
      'beforeSubmitPrompt',
      'stop',
      'sessionStart',
    ],
    layout: {
      kind: 'flat',
      top: { version: 1 },
      entry: (command, timeout, event) => ({
        command,
        timeout,
        // Shell commands come through beforeShellExecution: preToolUse covers the file tools only.
        ...(event === 'preToolUse' ? { matcher: 'Write|Edit|StrReplace|MultiEdit|Delete' } : {}),
        ...(REFUSING.has(event) ? { failClosed: true } : {}),
      }),
    },
  },
  instead: {
    PostToolUse:
      "Cursor's afterFileEdit/afterShellExecution only observe: file tools are judged by PostToolUse validators at preToolUse, before the edit; an edit seen only at afterFileEdit (older Cursor, Tab edits, tools preToolUse does not name) is judged there and what blocks is carried — the conversation's next blocking point (a tool, shell command, MCP call or file read) is refused once with it, and stop's followup_message sends the agent back until the file is fixed",
  },
});

export default cursor;
