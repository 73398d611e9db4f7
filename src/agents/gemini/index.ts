/**
 * Gemini CLI. Hooks in `.gemini/settings.json` or `~/.gemini/settings.json` (timeouts in milliseconds), events of
 * its own (BeforeTool, AfterTool, BeforeAgent, AfterAgent, PreCompress …) and snake_case tool names. Answers:
 * `decision: "deny"` + `reason` refuses a tool before it runs, replaces a tool's result after it ran (the model reads
 * the reason instead), discards a prompt, and at AfterAgent sends the agent back with the reason as a new prompt.
 *
 * Fail closed: in Gemini CLI exit 2 is a refusal with stderr as the reason, any other non-zero exit is only a
 * warning and output that is not JSON is an allow — so avp answers every event on exit 0 with a valid document, and
 * input it cannot read on exit 2. Response fields beyond Gemini's are left out.
 */
import type { HookEvent } from '../../protocol/event.ts';
import { jsonAnswer } from '../claude-shape.ts';
import { displayResponse, type NormalizeSpec } from '../normalize.ts';
import { projectAndUserFile, underHome } from '../install-paths.ts';
import type { Decision, EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

const EVENTS: Record<string, string> = {
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  BeforeAgent: 'UserPromptSubmit',
  AfterAgent: 'Stop',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  PreCompress: 'PreCompact',
  Notification: 'Notification',
};

const TOOLS: Record<string, ToolMapping> = {
  write_file: { tool: 'Write', kind: 'write' },
  replace: {
    tool: 'Edit',
    kind: 'edit',
    input: (i) => ({ ...i, replace_all: i.allow_multiple === true || (Number(i.expected_replacements) || 1) > 1 }),
  },
  run_shell_command: { tool: 'Bash', kind: 'shell' },
  read_file: { tool: 'Read', kind: 'read' },
  read_many_files: { tool: 'Read', kind: 'read' },
  list_directory: { tool: 'LS', kind: 'read' },
  glob: { tool: 'Glob', kind: 'read' },
  grep_search: { tool: 'Grep', kind: 'read' },
  search_file_content: { tool: 'Grep', kind: 'read' },
  web_fetch: { tool: 'WebFetch', kind: 'other' },
  google_web_search: { tool: 'WebSearch', kind: 'other' },
  write_todos: { tool: 'TodoWrite', kind: 'other' },
};

/**
 * BeforeTool: deny (its `hookSpecificOutput` takes only a rewritten `tool_input`, no context). AfterTool: deny
 * replaces the tool's result with the reason, which the model reads (the file is already written: it is the
 * after-the-fact block). BeforeAgent: deny discards the prompt. AfterAgent: deny makes the agent retry with the
 * reason. SessionStart takes context; SessionEnd, PreCompress and Notification are advisory only.
 */
const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: false },
  PostToolUse: { stop: 'block', context: true },
  UserPromptSubmit: { stop: 'block', context: true },
  Stop: { stop: 'block', context: false },
  SessionStart: { stop: false, context: true },
};

export function geminiDocument(event: HookEvent, d: Decision): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.kind === 'deny' || d.kind === 'block') out.decision = 'deny';
  if (d.kind !== 'pass' && d.reason !== undefined && out.decision) out.reason = d.reason;
  if (d.userMessage !== undefined) out.systemMessage = d.userMessage;
  if (d.context !== undefined)
    out.hookSpecificOutput = { hookEventName: event.agentEvent ?? event.event, additionalContext: d.context };
  return out;
}

const SPEC: NormalizeSpec = {
  name: 'gemini',
  displayName: 'Gemini CLI',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  sessionEnv: 'GEMINI_SESSION_ID',
  lastMessageField: 'prompt_response',
  response: displayResponse,
};

const home = underHome('.gemini');

const gemini = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  render: (event, d) => jsonAnswer(geminiDocument(event, d)),
  install: {
    ...projectAndUserFile('.gemini', home, 'settings.json'),
    timeoutUnit: 'milliseconds',
    events: Object.keys(EVENTS),
  },
});

export default gemini;
