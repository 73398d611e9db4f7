/**
 * Qwen Code (a Gemini CLI fork speaking Claude Code's events and answers). Hooks in `.qwen/settings.json` or
 * `~/.qwen/settings.json` (timeouts in milliseconds); tool names are Gemini's (`write_file`, `edit`,
 * `run_shell_command`). Exit 2 refuses with stderr as the reason; other exits and timeouts let the action go on, so
 * avp answers on exit 0 with a document. Qwen reads the fields it knows and ignores the rest (AVP's ride along).
 *
 * Two differences from Claude Code, handled here: PostToolUse ignores `decision: "block"` (only `continue: false`
 * and `additionalContext` act), so a PostToolUse refusal also goes in `additionalContext`, which Qwen appends to the
 * tool result the model reads; and Stop always says `stop_hook_active: true`, so avp's own Stop counter (reset by
 * the next prompt) is the loop guard there.
 */
import type { HookEvent } from '../../protocol/event.ts';
import { claudeShape, jsonAnswer } from '../claude-shape.ts';
import { displayResponse, type NormalizeSpec } from '../normalize.ts';
import { projectAndUserFile, underHome } from '../install-paths.ts';
import type { Decision, EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

const NAMES = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
];
const EVENTS: Record<string, string> = Object.fromEntries(NAMES.map((n) => [n, n]));

const TOOLS: Record<string, ToolMapping> = {
  write_file: { tool: 'Write', kind: 'write' },
  edit: { tool: 'Edit', kind: 'edit' },
  replace: { tool: 'Edit', kind: 'edit' },
  run_shell_command: { tool: 'Bash', kind: 'shell' },
  read_file: { tool: 'Read', kind: 'read' },
  grep_search: { tool: 'Grep', kind: 'read' },
  glob: { tool: 'Glob', kind: 'read' },
  list_directory: { tool: 'LS', kind: 'read' },
  web_fetch: { tool: 'WebFetch', kind: 'other' },
  todo_write: { tool: 'TodoWrite', kind: 'other' },
  agent: { tool: 'Task', kind: 'other' },
};

const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: true },
  PermissionRequest: { stop: 'deny', context: false },
  PostToolUse: { stop: 'block', context: true, contextOnBlock: true },
  PostToolUseFailure: { stop: false, context: true },
  UserPromptSubmit: { stop: 'block', context: true },
  Stop: { stop: 'block', context: false },
  SubagentStop: { stop: 'block', context: false },
  SessionStart: { stop: false, context: true },
  SubagentStart: { stop: false, context: true },
};

const SPEC: NormalizeSpec = {
  name: 'qwen',
  displayName: 'Qwen Code',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: ['QWEN_PROJECT_DIR'],
  lastMessageField: 'last_assistant_message',
  // UserPromptSubmit comes before every model call of a turn; its `prompt_id` says which are the same turn.
  turnIdField: 'prompt_id',
  response: displayResponse,
  // Qwen sends `stop_hook_active: true` on every Stop, the first included: avp counts the series itself.
  stopHookActive: (raw, trigger) =>
    trigger === 'Stop' ? true : typeof raw.stop_hook_active === 'boolean' ? raw.stop_hook_active : undefined,
};

const home = underHome('.qwen');

const qwen = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  extraFields: true,
  render: (event: HookEvent, d: Decision) => jsonAnswer(claudeShape(event, d, true)),
  install: {
    ...projectAndUserFile('.qwen', home, 'settings.json'),
    timeoutUnit: 'milliseconds',
    events: NAMES,
  },
});

export default qwen;
