/**
 * The Cline CLI (npm `cline` 3.x, built on `@cline/core`) runs the same hook files as the VS Code extension
 * (`.clinerules/hooks/<Event>`, `~/Documents/Cline/Hooks/<Event>`, also `.cline/hooks/` and `~/.cline/hooks/`), but
 * speaks a dialect of its own, read in its bundled code and captured from a real run (test/fixtures/hook/cline/):
 *
 * - `hookName` is the runtime's name (`tool_call` for a PreToolUse file, `tool_result`, `prompt_submit`,
 *   `agent_start` …); the legacy object (`preToolUse {toolName, parameters}`) is still there, with every non-string
 *   parameter JSON-encoded, so the call's own input is read from `tool_call.input` / `tool_result.input`.
 * - Its tools: `editor {path, old_text, new_text, insert_line}` (creates the file when `old_text` and `insert_line`
 *   are absent), `run_commands {commands[]}`, `read_files`, `search_codebase`, `fetch_web_content`, `apply_patch`.
 * - Only `tool_call` and `tool_result` are awaited; `prompt_submit`, `agent_start` and `agent_end` (TaskComplete) run
 *   detached with their output ignored, so the end of a run is held only where a completion tool ends it (yolo mode's
 *   `submit_and_exit`, below).
 * - The exit code is ignored and output that is not JSON is skipped: only a JSON answer on stdout refuses.
 * - `cancel: true` at `tool_call` aborts the whole run, and the model never reads why. `overrideInput` replaces the
 *   call's input and `contextModification` reaches the model as a `<hook_context>` message after the tool's result.
 */
import { obj } from '../normalize.ts';
import { defined, pick, str, type Raw } from '../reshape.ts';
import type { ToolMapping } from '../types.ts';

/** The CLI's `hookName` → the hook file (the extension's event name) it runs. */
export const CLI_HOOK_NAMES: Record<string, string> = {
  tool_call: 'PreToolUse',
  tool_result: 'PostToolUse',
  prompt_submit: 'UserPromptSubmit',
  agent_start: 'TaskStart',
  agent_resume: 'TaskResume',
  agent_end: 'TaskComplete',
  agent_abort: 'TaskCancel',
  agent_error: 'TaskError',
  session_shutdown: 'SessionShutdown',
};

/** Whether a Cline input comes from the CLI (its runtime's `hookName`). */
export const fromCli = (raw: Raw | undefined): boolean => Object.hasOwn(CLI_HOOK_NAMES, str(raw?.hookName) ?? '');

/** The call's input as the model sent it: the CLI's own object, else the legacy `parameters`. */
export function cliToolInput(raw: Raw, data: Raw): Raw | undefined {
  return obj(obj(raw.tool_call)?.input) ?? obj(obj(raw.tool_result)?.input) ?? obj(data.parameters);
}

/** `editor` without `old_text` and `insert_line` creates the file: a Write, told apart by the reshape. */
export const cliToolName = (tool: string, input: Raw): string =>
  tool === 'editor' && input.old_text == null && input.insert_line == null ? 'editor#create' : tool;

const editorInput = (i: Raw): Raw =>
  defined({ ...i, file_path: pick(i, 'path'), old_string: pick(i, 'old_text'), new_string: pick(i, 'new_text') });

function commandsInput(i: Raw): Raw {
  const list = Array.isArray(i.commands) ? i.commands : [i.commands ?? i.command];
  const commands = list.map((c) => (typeof c === 'string' ? c : pick(obj(c), 'command'))).filter((c) => c);
  // Every command of the call is judged: one per line, as a script would run them.
  return { ...i, command: commands.join('\n') };
}

function readInput(i: Raw): Raw {
  const files = Array.isArray(i.files) ? i.files.map((f) => pick(obj(f), 'path')).filter((p) => p) : [];
  return defined({ ...i, file_path: files.length === 1 ? files[0] : undefined });
}

export const CLI_TOOLS: Record<string, ToolMapping> = {
  'editor#create': {
    tool: 'Write',
    kind: 'write',
    input: (i) => defined({ ...i, file_path: pick(i, 'path'), content: pick(i, 'new_text') }),
  },
  // An `insert_line` insert is an Edit without an `old_string`: avp rebuilds the file with the text inserted.
  editor: { tool: 'Edit', kind: 'edit', input: editorInput },
  run_commands: { tool: 'Bash', kind: 'shell', input: commandsInput },
  read_files: { tool: 'Read', kind: 'read', input: readInput },
  search_codebase: { tool: 'Grep', kind: 'read' },
  fetch_web_content: { tool: 'WebFetch', kind: 'other' },
};

/**
 * The CLI's tools that check their input against their schema before they touch anything: a `null` input is refused
 * there ("Invalid input"), so the call does nothing and the model reads avp's reason next. `run_commands` would run a
 * string input as a command, which is why the input is `null` and never a text.
 */
const REFUSE_NULL_INPUT = new Set(['editor', 'run_commands', 'apply_patch', 'submit_and_exit']);

/**
 * The CLI's completion tool, offered only in yolo mode (`cline --yolo`, a flag its help does not list; also scheduled
 * runs): there a run ends only when the model calls it (a plain answer gets a "[SYSTEM] This run is not complete"
 * reminder and the loop goes on), and its `tool_call` is awaited, so it is avp's Stop. Refused with a null input, the
 * call fails its schema, the run goes on and the model reads avp's reason next. In act mode (the default) a run ends
 * when the model answers without a tool call, and no awaited hook sees that: no Stop there.
 */
export const CLI_COMPLETION_TOOL = 'submit_and_exit';

/**
 * A refusal at the CLI's `tool_call`: for the tools above, the call's input is replaced by one the tool refuses and
 * the reason goes to the model as context, so the run goes on; any other tool is cancelled, which ends the run (the
 * tool never runs, and Cline shows no reason: avp's stderr and logs keep it).
 */
export function cliDenyDocument(tool: string | undefined, reason: string): Record<string, unknown> {
  if (tool && REFUSE_NULL_INPUT.has(tool))
    return { cancel: false, errorMessage: reason, contextModification: reason.slice(0, 50_000), overrideInput: null };
  return { cancel: true, errorMessage: reason };
}
