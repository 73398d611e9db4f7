/**
 * Windsurf Cascade (hooks are beta). Hooks in `.windsurf/hooks.json` (workspace), `~/.codeium/windsurf/hooks.json`
 * (user) or a system file; flat `{command, show_output}` entries per event. Input: `agent_action_name` (the event),
 * `trajectory_id` (the conversation), `execution_id`, `timestamp` and `tool_info` — `file_path` + `edits[]`
 * (write_code), `file_path` (read_code), `command_line` + `cwd` (run_command), `mcp_server_name` +
 * `mcp_tool_name` + `mcp_tool_arguments` (mcp_tool_use), `user_prompt` (pre_user_prompt), `response`
 * (post_cascade_response).
 *
 * Only pre-hooks can block, by exiting 2 (stderr is the reason Cascade shows). So avp answers a refusal with exit 2
 * and everything else with exit 0; a file edit is also judged by the PostToolUse validators at pre_write_code,
 * since post_write_code cannot refuse. Cascade cannot be sent back after it answered: Stop validators only report.
 */
import type { HookEvent } from '../../protocol/event.ts';
import { obj, type NormalizeSpec } from '../normalize.ts';
import {
  defined,
  exitTwo,
  failClosedFor,
  judgePostAtPre,
  normalizeReshaped,
  oneText,
  pick,
  str,
  type Raw,
} from '../reshape.ts';
import { projectAndUserFile, underHome } from '../install-paths.ts';
import type { AgentAnswer, Decision, EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

const EVENTS: Record<string, string> = {
  pre_read_code: 'PreToolUse',
  pre_write_code: 'PreToolUse',
  pre_run_command: 'PreToolUse',
  pre_mcp_tool_use: 'PreToolUse',
  post_read_code: 'PostToolUse',
  post_write_code: 'PostToolUse',
  post_run_command: 'PostToolUse',
  post_mcp_tool_use: 'PostToolUse',
  pre_user_prompt: 'UserPromptSubmit',
  post_cascade_response: 'Stop',
};

const TOOLS: Record<string, ToolMapping> = {
  write_code: { tool: 'MultiEdit', kind: 'edit' },
  read_code: { tool: 'Read', kind: 'read' },
  run_command: { tool: 'Bash', kind: 'shell' },
};

const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: false },
  UserPromptSubmit: { stop: 'block', context: false },
};

function reshape(raw: Raw): Raw {
  const action = str(raw.agent_action_name);
  const info = obj(raw.tool_info) ?? {};
  const base = {
    hook_event_name: action,
    session_id: str(raw.trajectory_id),
    cwd: str(info.cwd),
  };
  const kind = action?.replace(/^(pre|post)_/, '');
  if (kind === 'write_code') {
    const edits = Array.isArray(info.edits) ? info.edits : [];
    return defined({ ...base, tool_name: 'write_code', tool_input: { file_path: info.file_path, edits } });
  }
  if (kind === 'read_code')
    return defined({ ...base, tool_name: 'read_code', tool_input: { file_path: info.file_path } });
  if (kind === 'run_command')
    return defined({ ...base, tool_name: 'run_command', tool_input: { command: info.command_line ?? info.command } });
  if (kind === 'mcp_tool_use') {
    const tool = `mcp__${pick(info, 'mcp_server_name') ?? 'mcp'}__${pick(info, 'mcp_tool_name') ?? 'tool'}`;
    return defined({
      ...base,
      tool_name: tool,
      tool_input: obj(info.mcp_tool_arguments) ?? {},
      tool_response: info.mcp_result,
    });
  }
  return defined({
    ...base,
    prompt: pick(info, 'user_prompt'),
    last_assistant_message: pick(info, 'response'),
  });
}

const SPEC: NormalizeSpec = {
  name: 'windsurf',
  displayName: 'Windsurf Cascade',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: [],
  lastMessageField: 'last_assistant_message',
  response: () => undefined,
};

/** A refusal: exit 2, the reason on stderr. Anything else: exit 0, a note on stdout (shown with `show_output`). */
export function windsurfAnswer(_event: HookEvent, d: Decision): AgentAnswer {
  if (d.kind === 'deny' || d.kind === 'block') return exitTwo(d.reason ?? 'avp refused this action');
  const text = d.kind === 'warn' ? oneText(d) : undefined;
  return { stdout: text ? `${text}\n` : '', exitCode: 0 };
}

const home = underHome('.codeium', 'windsurf');

const windsurf = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  normalize: (input, env) => judgePostAtPre(normalizeReshaped(SPEC, reshape, input, env)),
  render: windsurfAnswer,
  failClosed: failClosedFor(() => windsurf, 'agent_action_name', 'hook_event_name'),
  install: {
    ...projectAndUserFile('.windsurf', home, 'hooks.json'),
    timeoutUnit: 'seconds',
    events: Object.keys(EVENTS),
    layout: { kind: 'flat', entry: (command) => ({ command, show_output: true }) },
  },
  instead: {
    PostToolUse:
      'Windsurf blocks only in pre-hooks: file edits are judged by PostToolUse validators at pre_write_code, before they are written; what blocks after a tool ran (the files a command changed, an edit pre_write_code did not see) is carried: the next pre-hook is refused once with it',
    Stop: 'Cascade cannot be sent back after post_cascade_response: Stop validators only report to the user',
  },
});

export default windsurf;
