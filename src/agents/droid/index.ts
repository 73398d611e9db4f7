/**
 * Factory Droid. Hooks in `.factory/hooks.json` or `~/.factory/hooks.json` (timeouts in seconds), Claude Code's
 * events and answers, tools of its own: `Execute` (shell), `Create` (write), `Edit`, `ApplyPatch` (a patch, as
 * Codex's). Captured inputs are snake_case and `tool_response` is a JSON string; some of its documentation shows
 * camelCase input fields (`hookEventName`, `sessionId`): both spellings are read.
 * Exit 2 refuses with stderr as the reason; other non-zero exits are non-blocking errors, so avp answers on exit 0
 * with a document holding only the documented fields. Its PostToolUse ignores `decision: "block"` (unlike Claude
 * Code's), so there the reason also goes in `additionalContext`, which Droid adds to the model's next request.
 */
import type { HookEvent } from '../../protocol/event.ts';
import { claudeShape, jsonAnswer } from '../claude-shape.ts';
import { claudeResponse, type NormalizeSpec } from '../normalize.ts';
import { projectAndUserFile, underHome } from '../install-paths.ts';
import type { Decision, EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

const NAMES = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
  'Notification',
];
const EVENTS: Record<string, string> = Object.fromEntries(NAMES.map((n) => [n, n]));

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

const TOOLS: Record<string, ToolMapping> = {
  Create: { tool: 'Write', kind: 'write' },
  Edit: {
    tool: 'Edit',
    kind: 'edit',
    input: (i) => ({
      ...i,
      ...(str(i.old_string) === undefined && str(i.old_str) !== undefined ? { old_string: i.old_str } : {}),
      ...(str(i.new_string) === undefined && str(i.new_str) !== undefined ? { new_string: i.new_str } : {}),
    }),
  },
  ApplyPatch: { tool: 'Edit', kind: 'edit', patchField: 'input' },
  Execute: { tool: 'Bash', kind: 'shell' },
  Read: { tool: 'Read', kind: 'read' },
  LS: { tool: 'LS', kind: 'read' },
  Grep: { tool: 'Grep', kind: 'read' },
  Glob: { tool: 'Glob', kind: 'read' },
  FetchUrl: { tool: 'WebFetch', kind: 'other' },
  WebSearch: { tool: 'WebSearch', kind: 'other' },
  Task: { tool: 'Task', kind: 'other' },
  TodoWrite: { tool: 'TodoWrite', kind: 'other' },
};

const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: true },
  // After a tool Droid reads `continue`, `hookSpecificOutput.additionalContext` (shown to the model only),
  // `systemMessage` (the user only) and exit codes, never `decision`: a block's reason reaches the model as context.
  PostToolUse: { stop: 'block', context: true, contextOnBlock: true },
  UserPromptSubmit: { stop: 'block', context: true },
  Stop: { stop: 'block', context: false },
  SubagentStop: { stop: 'block', context: false },
  SessionStart: { stop: false, context: true },
};

const SPEC: NormalizeSpec = {
  name: 'droid',
  displayName: 'Factory Droid',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: ['FACTORY_PROJECT_DIR', 'DROID_PROJECT_DIR'],
  lastMessageField: 'last_assistant_message',
  fieldAliases: {
    hookEventName: 'hook_event_name',
    sessionId: 'session_id',
    transcriptPath: 'transcript_path',
    permissionMode: 'permission_mode',
    toolName: 'tool_name',
    toolInput: 'tool_input',
    toolResponse: 'tool_response',
    stopHookActive: 'stop_hook_active',
  },
  response: claudeResponse,
};

/**
 * Claude's shape, plus what Droid reads at a prompt: its UserPromptSubmit refuses only on `continue: false` (or exit
 * 2) and shows `stopReason` to the user; `decision: "block"` alone would let the prompt through.
 */
function droidShape(event: HookEvent, d: Decision): Record<string, unknown> {
  const doc = claudeShape(event, d, false);
  if (event.event === 'UserPromptSubmit' && d.kind === 'block')
    return { ...doc, continue: false, stopReason: d.reason };
  return doc;
}

const home = underHome('.factory');

const droid = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  render: (event: HookEvent, d: Decision) => jsonAnswer(droidShape(event, d)),
  install: {
    ...projectAndUserFile('.factory', home, 'hooks.json'),
    timeoutUnit: 'seconds',
    events: NAMES,
    // Droid reads hooks.json keyed by event name at the top level (a `"hooks"` key there is not read).
    layout: { kind: 'top' },
  },
});

export default droid;
