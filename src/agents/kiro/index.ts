/**
 * Kiro CLI. Hooks live in an agent's configuration (`.kiro/agents/<name>.json`, `~/.kiro/agents/<name>.json`):
 * `hooks.<event>: [{command, matcher?, timeout_ms}]` for agentSpawn, userPromptSubmit, preToolUse, postToolUse and
 * stop. A hook applies only to the agent whose file holds it, so avp writes its own agent, `avp` (all tools), and
 * `avp init` tells the user to make it the default (`kiro-cli agent set-default avp`) or to copy the hooks into theirs.
 * Input is Claude-shaped: `hook_event_name`, `cwd`, `tool_name`, `tool_input`, `tool_response`.
 *
 * Exit 2 refuses, on preToolUse only, and its stderr goes to the model; any other exit is a warning. So a refusal
 * is exit 2, a file change is also judged by the PostToolUse validators at preToolUse, and the other events only
 * report (stdout of agentSpawn/userPromptSubmit is added to the model's context).
 */
import type { HookEvent } from '../../protocol/event.ts';
import { claudeResponse, obj, type NormalizeSpec } from '../normalize.ts';
import { defined, exitTwo, judgePostAtPre, normalizeReshaped, oneText, pick, str, type Raw } from '../reshape.ts';
import { projectAndUserFile, underHome } from '../install-paths.ts';
import type { AgentAnswer, Decision, EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

const EVENTS: Record<string, string> = {
  agentSpawn: 'SessionStart',
  userPromptSubmit: 'UserPromptSubmit',
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  stop: 'Stop',
};

const fileInput = (i: Raw): Raw =>
  defined({
    ...i,
    file_path: pick(i, 'path', 'file_path'),
    content: pick(i, 'file_text', 'content'),
    old_string: pick(i, 'old_str', 'old_string'),
    new_string: pick(i, 'new_str', 'new_string'),
  });

const TOOLS: Record<string, ToolMapping> = {
  // fs_write's `command` decides: `create` writes a file, `str_replace`/`insert`/`append` edit one (see reshape).
  'fs_write#create': { tool: 'Write', kind: 'write', input: fileInput },
  fs_write: { tool: 'Edit', kind: 'edit', input: fileInput },
  'write#create': { tool: 'Write', kind: 'write', input: fileInput },
  write: { tool: 'Edit', kind: 'edit', input: fileInput },
  execute_bash: { tool: 'Bash', kind: 'shell' },
  shell: { tool: 'Bash', kind: 'shell' },
  fs_read: { tool: 'Read', kind: 'read', input: fileInput },
  read: { tool: 'Read', kind: 'read', input: fileInput },
  glob: { tool: 'Glob', kind: 'read' },
  grep: { tool: 'Grep', kind: 'read' },
};

const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: false },
  SessionStart: { stop: false, context: true },
  UserPromptSubmit: { stop: false, context: true },
};

function reshape(raw: Raw): Raw {
  const tool = str(raw.tool_name);
  const input = obj(raw.tool_input);
  const create = (tool === 'fs_write' || tool === 'write') && input?.command === 'create';
  return defined({
    ...raw,
    tool_name: create ? `${tool}#create` : tool,
    agent_tool: tool,
    session_id: pick(raw, 'session_id', 'conversation_id'),
    last_assistant_message: pick(raw, 'assistant_response', 'last_assistant_message'),
  });
}

const SPEC: NormalizeSpec = {
  name: 'kiro',
  displayName: 'Kiro CLI',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: [],
  lastMessageField: 'last_assistant_message',
  response: claudeResponse,
};

/** A refusal: exit 2, the reason on stderr (for the model). Else exit 0; context goes on stdout where Kiro reads it. */
export function kiroAnswer(event: HookEvent, d: Decision): AgentAnswer {
  if (d.kind === 'deny' || d.kind === 'block') return exitTwo(d.reason ?? 'avp refused this tool call');
  const text = ABILITIES[event.event]?.context
    ? (d.context ?? (d.kind === 'warn' ? oneText(d) : undefined))
    : undefined;
  return { stdout: text ? `${text}\n` : '', exitCode: 0 };
}

const home = underHome('.kiro');

const kiro = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  normalize: (input, env) => judgePostAtPre(normalizeReshaped(SPEC, reshape, input, env)),
  render: kiroAnswer,
  install: {
    ...projectAndUserFile('.kiro', home, 'agents', 'avp.json'),
    timeoutUnit: 'milliseconds',
    events: Object.keys(EVENTS),
    layout: {
      kind: 'flat',
      top: {
        name: 'avp',
        description: "Kiro's default tools, with avp's validators on every tool call (written by avp init)",
        tools: ['*'],
      },
      entry: (command, timeout, event) => ({
        command,
        timeout_ms: timeout,
        ...(event === 'preToolUse' || event === 'postToolUse' ? { matcher: '*' } : {}),
      }),
    },
  },
  instead: {
    PostToolUse:
      'Kiro refuses only at preToolUse: file changes are judged by PostToolUse validators there, before they are written; what blocks after a tool ran is carried: the next preToolUse is refused once with it',
    Stop: 'Kiro cannot be sent back at stop: Stop validators only report',
    UserPromptSubmit: 'Kiro cannot refuse a prompt: findings are added to the context',
  },
});

export default kiro;
