/**
 * Cline. Hooks are executables named after their event in `.clinerules/hooks/` (project) or
 * `~/Documents/Cline/Hooks/` (user); avp writes one small script per event that runs `avp hook --agent cline`.
 * Input: `clineVersion`, `hookName`, `taskId`, `workspaceRoots[]` and the event's object — `preToolUse` /
 * `postToolUse` `{toolName, parameters, result, success}`, `userPromptSubmit {prompt}`, `taskStart {taskMetadata}`.
 * Tool parameters name files relative to the workspace (`path`); `replace_in_file` carries SEARCH/REPLACE blocks.
 *
 * Answer: `{cancel, errorMessage, contextModification}` — `cancel: true` stops the action and shows `errorMessage`,
 * `contextModification` reaches the model on its next request. A finished task is the `attempt_completion` tool:
 * its PreToolUse is avp's Stop (cancelled, the agent goes on with the reason; avp's own counter ends the loop, since
 * Cline sends no loop signal); the Cline CLI's `submit_and_exit` (yolo mode) is its Stop too. After a tool ran, avp
 * does not cancel (that would abort the task) but gives the reason as context. The extension fails closed by itself:
 * a non-zero exit, a timeout or output that is not JSON blocks. The Cline CLI sends its own event and tool names
 * and reads answers differently: cli.ts.
 */
import { homedir } from '../../os/home.ts';
import { join } from 'node:path';
import type { HookEvent } from '../../protocol/event.ts';
import { internalReason, jsonAnswer } from '../claude-shape.ts';
import { obj, type NormalizeSpec } from '../normalize.ts';
import { CLINE_HOOK_EVENTS, OWNED_MARKER } from '../../trust/control-files.ts';
import { defined, internalRefusal, judgePostAtPre, normalizeReshaped, pick, str, type Raw } from '../reshape.ts';
import type { Decision, EventAbilities, OwnedFile, ToolMapping } from '../types.ts';
import {
  CLI_COMPLETION_TOOL,
  CLI_HOOK_NAMES,
  CLI_TOOLS,
  cliDenyDocument,
  cliToolInput,
  cliToolName,
  fromCli,
} from './cli.ts';
import { defineAdapter } from '../define.ts';

/** The extension's `attempt_completion` and the CLI's `submit_and_exit` (yolo mode): the agent says it is done. */
const isCompletionTool = (tool: string | undefined): boolean =>
  tool === 'attempt_completion' || tool === CLI_COMPLETION_TOOL;

const EVENTS: Record<string, string> = {
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  UserPromptSubmit: 'UserPromptSubmit',
  // The PreToolUse of `attempt_completion`: the agent says it is done.
  attempt_completion: 'Stop',
  TaskStart: 'SessionStart',
  TaskResume: 'SessionStart',
  TaskComplete: 'SessionEnd',
  TaskCancel: 'SessionEnd',
  SessionShutdown: 'SessionEnd',
  PreCompact: 'PreCompact',
};

const fileInput = (i: Raw): Raw =>
  defined({ ...i, file_path: pick(i, 'path', 'file_path'), content: pick(i, 'content') });

/** `replace_in_file`'s SEARCH/REPLACE blocks as a multi-edit. */
function searchReplace(i: Raw): Raw {
  const diff = str(i.diff) ?? '';
  const edits: Array<{ old_string: string; new_string: string }> = [];
  const block = /-{3,} SEARCH\r?\n([\s\S]*?)\r?\n?={3,}\r?\n([\s\S]*?)\r?\n?\+{3,} REPLACE/g;
  for (let m = block.exec(diff); m; m = block.exec(diff)) edits.push({ old_string: m[1]!, new_string: m[2]! });
  return defined({ ...i, file_path: pick(i, 'path', 'file_path'), edits });
}

const TOOLS: Record<string, ToolMapping> = {
  write_to_file: { tool: 'Write', kind: 'write', input: fileInput },
  replace_in_file: { tool: 'MultiEdit', kind: 'edit', input: searchReplace },
  apply_patch: { tool: 'Edit', kind: 'edit', patchField: 'input' },
  execute_command: { tool: 'Bash', kind: 'shell' },
  read_file: { tool: 'Read', kind: 'read', input: fileInput },
  list_files: { tool: 'LS', kind: 'read' },
  search_files: { tool: 'Grep', kind: 'read' },
  web_fetch: { tool: 'WebFetch', kind: 'other' },
  ...CLI_TOOLS,
};

const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: true },
  PostToolUse: { stop: 'block', context: true, contextOnBlock: true },
  UserPromptSubmit: { stop: 'block', context: true },
  Stop: { stop: 'block', context: true },
  SessionStart: { stop: false, context: true },
};

/** The hook file's name for the event: the extension's `hookName`, or the CLI's translated. */
const hookOf = (raw: Raw): string | undefined =>
  CLI_HOOK_NAMES[str(raw.hookName) ?? ''] ?? pick(raw, 'hookName', 'hook_event_name');

function reshape(raw: Raw): Raw {
  const hook = hookOf(raw);
  const roots = Array.isArray(raw.workspaceRoots) ? raw.workspaceRoots.filter((r) => typeof r === 'string') : [];
  const key = hook ? hook[0]!.toLowerCase() + hook.slice(1) : '';
  const data = obj(raw[key]) ?? {};
  const tool = str(data.toolName);
  const params = (fromCli(raw) ? cliToolInput(raw, data) : obj(data.parameters)) ?? {};
  const done = hook === 'PreToolUse' && isCompletionTool(tool);
  const named = tool && fromCli(raw) ? cliToolName(tool, params) : tool;
  return defined({
    hook_event_name: done ? 'attempt_completion' : hook,
    session_id: str(raw.taskId),
    cwd: roots[0],
    tool_name: done ? undefined : tool && tool === 'use_mcp_tool' ? mcpName(params) : named,
    agent_tool: named !== tool ? tool : undefined,
    tool_input: done || !tool ? undefined : params,
    tool_response: data.result,
    prompt: pick(data, 'prompt') ?? pick(obj(data.taskMetadata), 'initialTask'),
    last_assistant_message: done ? pick(params, 'result', 'summary') : undefined,
    // Cline sends no loop signal: every completion continues the series until the user's next prompt.
    stop_hook_active: done ? true : undefined,
    source: hook === 'TaskResume' ? 'resume' : hook === 'TaskStart' ? 'startup' : undefined,
  });
}

const badInputAnswer = (message: string) =>
  `${JSON.stringify({ cancel: true, errorMessage: `avp hook: ${message}` })}\n`;

const mcpName = (p: Raw) => `mcp__${pick(p, 'server_name') ?? 'mcp'}__${pick(p, 'tool_name') ?? 'tool'}`;

const SPEC: NormalizeSpec = {
  name: 'cline',
  displayName: 'Cline',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: [],
  lastMessageField: 'last_assistant_message',
  response: () => undefined,
};

export function clineDocument(event: HookEvent, d: Decision): Record<string, unknown> {
  if (d.kind === 'deny' && event.event === 'PreToolUse' && fromCli(obj(event.raw)))
    return cliDenyDocument(event.agentTool ?? event.tool, d.reason ?? '');
  // The CLI's completion tool: a cancel would abort the run, so the call is refused and the agent goes on.
  if (d.kind === 'block' && event.event === 'Stop' && fromCli(obj(event.raw)))
    return cliDenyDocument(CLI_COMPLETION_TOOL, d.reason ?? '');
  // After a tool ran, cancelling would abort the whole task: the refusal goes to the model as context instead.
  const cancel = (d.kind === 'deny' || d.kind === 'block') && event.event !== 'PostToolUse';
  const out: Record<string, unknown> = { cancel };
  // errorMessage marks a refusal (Cline shows it when it cancels; after a tool the context carries it).
  if (d.kind === 'deny' || d.kind === 'block') out.errorMessage = d.reason ?? '';
  const context = d.context ?? (cancel ? d.reason : undefined);
  if (context !== undefined) out.contextModification = context.slice(0, 50_000);
  return out;
}

/** One executable per event: a POSIX shell script that runs avp (Cline runs hooks by file name). */
function scripts(command: string, _timeout: number, dir: string): OwnedFile[] {
  return cline.install.events.map((event) => ({
    path: join(dir, event),
    event,
    mode: 0o755,
    text: `#!/bin/sh\n# avp's hook for Cline, ${OWNED_MARKER}.\nexec ${command}\n`,
  }));
}

const cline = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  normalize: (input, env) => judgePostAtPre(normalizeReshaped(SPEC, reshape, input, env)),
  render: (event, d) => jsonAnswer(clineDocument(event, d)),
  failClosed: (input, problem) => {
    // The CLI ignores the exit code: only a JSON answer refuses there (the extension blocks on the exit code too).
    if (problem.kind === 'bad-input')
      return { stdout: badInputAnswer(problem.message), stderr: `avp hook: ${problem.message}\n`, exitCode: 2 };
    const given = obj(input);
    // The CLI: a cancel would abort the whole run unexplained; the call is refused (or, after it, reported) instead.
    if (fromCli(given)) {
      const reason = internalReason(problem.message);
      const call = obj(given?.tool_call);
      const doc =
        call !== undefined
          ? cliDenyDocument(str(call.name), reason)
          : { cancel: false, errorMessage: reason, contextModification: reason };
      return { ...jsonAnswer(doc), stderr: `avp hook: internal error: ${problem.message}\n` };
    }
    const tool = pick(obj(given?.preToolUse), 'toolName');
    const hook = (given && hookOf(given)) ?? '';
    return internalRefusal(
      cline,
      hook === 'PreToolUse' && isCompletionTool(tool) ? 'attempt_completion' : hook,
      problem.message,
    );
  },
  install: {
    scopes: ['project', 'user'],
    path: (scope, root, env) =>
      scope === 'user'
        ? join(env.HOME || homedir(), 'Documents', 'Cline', 'Hooks')
        : join(root, '.clinerules', 'hooks'),
    timeoutUnit: 'seconds',
    events: CLINE_HOOK_EVENTS,
    markers: (root, env) => ({
      project: [join(root, '.clinerules')],
      user: [join(env.HOME || homedir(), 'Documents', 'Cline')],
    }),
    layout: { kind: 'owned', files: (command, timeout, dir) => scripts(command, timeout, dir) },
  },
  instead: {
    Stop:
      "in the CLI's default act mode nothing marks the end of a turn, so Stop validators do not run there; they block " +
      "at Cline's completion tool: attempt_completion in VS Code, submit_and_exit in the CLI's --yolo mode",
  },
});

export default cline;
