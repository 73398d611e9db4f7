/**
 * GitHub Copilot CLI and the Copilot coding agent. Hooks in `.github/hooks/*.json` (`version: 1`, one entry per
 * event with a `bash` and a `powershell` command and `timeoutSec`); avp writes its own `.github/hooks/avp.json`
 * (the coding agent reads it from the default branch). Input is camelCase — `toolName`, `toolArgs` (a JSON string),
 * `toolResult` — and carries no event name, so avp's entry names the event: `avp hook --agent copilot --event E`.
 *
 * Fail closed: Copilot skips a hook that exits non-zero or times out, so a refusal must be an explicit answer on
 * exit 0 — `permissionDecision: "deny"` before a tool, `decision: "block"` at a prompt or a stop — and input avp
 * cannot read is refused the same way (both fields, since the event may be unknown). The entry's `timeoutSec` is
 * above avp's whole-call budget so avp always answers first. File changes are also judged by the PostToolUse
 * validators at preToolUse: Copilot reads no refusal after a tool ran.
 */
import { homedir } from '../../os/home.ts';
import { join } from 'node:path';
import type { HookEvent } from '../../protocol/event.ts';
import { jsonAnswer } from '../claude-shape.ts';
import { badInput, obj, type NormalizeSpec, type ResponseFacts } from '../normalize.ts';
import { defined, internalRefusal, judgePostAtPre, normalizeReshaped, pick, str, type Raw } from '../reshape.ts';
import type { Decision, EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

const EVENTS: Record<string, string> = {
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure',
  permissionRequest: 'PermissionRequest',
  userPromptSubmitted: 'UserPromptSubmit',
  agentStop: 'Stop',
  subagentStart: 'SubagentStart',
  subagentStop: 'SubagentStop',
  sessionStart: 'SessionStart',
  sessionEnd: 'SessionEnd',
  preCompact: 'PreCompact',
  notification: 'Notification',
};

const rename = (i: Raw, map: Record<string, string>): Raw => {
  const out: Raw = { ...i };
  for (const [from, to] of Object.entries(map)) if (out[to] === undefined && out[from] !== undefined) out[to] = i[from];
  return out;
};
const fileFields = { path: 'file_path', file_text: 'content', old_str: 'old_string', new_str: 'new_string' };

const TOOLS: Record<string, ToolMapping> = {
  bash: { tool: 'Bash', kind: 'shell' },
  powershell: { tool: 'Bash', kind: 'shell' },
  create: { tool: 'Write', kind: 'write', input: (i) => rename(i, fileFields) },
  edit: { tool: 'Edit', kind: 'edit', input: (i) => rename(i, fileFields) },
  // The editor tool's subcommand decides: `create` writes a file, the others edit one (see `reshape`).
  'str_replace_editor#create': { tool: 'Write', kind: 'write', input: (i) => rename(i, fileFields) },
  str_replace_editor: { tool: 'Edit', kind: 'edit', input: (i) => rename(i, fileFields) },
  apply_patch: { tool: 'Edit', kind: 'edit', patchField: 'input' },
  view: { tool: 'Read', kind: 'read', input: (i) => rename(i, fileFields) },
  glob: { tool: 'Glob', kind: 'read' },
  grep: { tool: 'Grep', kind: 'read' },
  web_fetch: { tool: 'WebFetch', kind: 'other' },
  task: { tool: 'Task', kind: 'other' },
};

/**
 * preToolUse: `permissionDecision: "deny"` (only deny is acted on). userPromptSubmitted, agentStop and
 * subagentStop: `decision: "block"` + `reason` (the stop's reason becomes the next message; Copilot caps
 * consecutive blocks itself). postToolUse and sessionStart: `additionalContext` only.
 */
const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: true },
  PostToolUse: { stop: false, context: true },
  PostToolUseFailure: { stop: false, context: true },
  UserPromptSubmit: { stop: 'block', context: true },
  Stop: { stop: 'block', context: false },
  SubagentStop: { stop: 'block', context: false },
  SessionStart: { stop: false, context: true },
  SubagentStart: { stop: false, context: true },
};

/** `toolArgs` is a JSON string in command hooks (an object in the SDK): both are read. */
function toolArgs(raw: Raw): Raw | undefined {
  const args = raw.toolArgs ?? raw.tool_input;
  if (typeof args !== 'string') return obj(args);
  try {
    return obj(JSON.parse(args)) ?? {};
  } catch {
    throw badInput(SPEC, '"toolArgs" is not a JSON object');
  }
}

function reshape(raw: Raw): Raw {
  const args = toolArgs(raw);
  let tool = pick(raw, 'toolName', 'tool_name');
  const own = tool;
  if (tool === 'str_replace_editor' && args?.command === 'create') tool = 'str_replace_editor#create';
  const error = obj(raw.error)?.message ?? raw.error;
  return defined({
    hook_event_name: pick(raw, 'hook_event_name', 'hookEventName'),
    session_id: pick(raw, 'sessionId', 'session_id'),
    cwd: pick(raw, 'cwd', 'workingDirectory'),
    tool_name: tool,
    agent_tool: own,
    tool_input: args,
    tool_response: raw.toolResult,
    prompt: pick(raw, 'prompt', 'initialPrompt'),
    last_message: pick(raw, 'response', 'finalMessage'),
    stop_hook_active: raw.stopHookActive ?? raw.stop_hook_active,
    source: str(raw.source),
    reason: str(raw.reason),
    error: str(error),
    agent_type: pick(raw, 'agentType', 'agentName'),
  });
}

/** A successful create's result says nothing of the contents: only that it was created. */
function copilotResponse(response: unknown): ResponseFacts | undefined {
  return obj(response)?.resultType === 'success' ? {} : undefined;
}

const SPEC: NormalizeSpec = {
  name: 'copilot',
  displayName: 'GitHub Copilot CLI',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: ['COPILOT_PROJECT_DIR'],
  lastMessageField: 'last_message',
  response: copilotResponse,
};

export function copilotDocument(event: HookEvent, d: Decision): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.kind === 'deny') {
    out.permissionDecision = 'deny';
    out.permissionDecisionReason = d.reason ?? '';
  } else if (d.kind === 'block') {
    out.decision = 'block';
    out.reason = d.reason ?? '';
  }
  const ability = ABILITIES[event.event];
  if (d.context !== undefined && ability?.context) out.additionalContext = d.context;
  return out;
}

const home = (env: NodeJS.ProcessEnv) => env.COPILOT_HOME || join(env.HOME || homedir(), '.copilot');

const copilot = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  normalize: (input, env) => judgePostAtPre(normalizeReshaped(SPEC, reshape, input, env)),
  render: (event, d) => jsonAnswer(copilotDocument(event, d)),
  failClosed: (input, problem) => {
    if (problem.kind === 'internal')
      return internalRefusal(copilot, pick(obj(input), 'hook_event_name', 'hookEventName') ?? '', problem.message);
    // Copilot skips a hook that exits non-zero: the refusal is an answer, for whichever event this was.
    const reason = `avp hook: ${problem.message}`;
    return {
      ...jsonAnswer({ permissionDecision: 'deny', permissionDecisionReason: reason, decision: 'block', reason }),
      stderr: `${reason}\n`,
    };
  },
  install: {
    scopes: ['project', 'user'],
    path: (scope, root, env) =>
      scope === 'user' ? join(home(env), 'hooks', 'avp.json') : join(root, '.github', 'hooks', 'avp.json'),
    timeoutUnit: 'seconds',
    events: ['preToolUse', 'postToolUse', 'userPromptSubmitted', 'agentStop', 'subagentStop', 'sessionStart'],
    markers: (root, env) => ({ project: [join(root, '.github', 'hooks')], user: [home(env)] }),
    layout: {
      kind: 'flat',
      top: { version: 1 },
      entry: (command, timeout, event) => ({
        type: 'command',
        bash: `${command} --event ${event}`,
        powershell: `${command} --event ${event}`,
        timeoutSec: timeout,
      }),
    },
  },
  instead: {
    PostToolUse:
      'Copilot reads no refusal after a tool ran: file changes are judged by PostToolUse validators at preToolUse, before they are written; other findings reach the model as context, and what blocks is carried: the next preToolUse is denied once with it and agentStop sends the agent back until the file is fixed',
  },
});

export default copilot;
