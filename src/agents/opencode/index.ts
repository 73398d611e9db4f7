/**
 * OpenCode. No command hooks: plugins run in-process (`.opencode/plugins/*.ts`, `~/.config/opencode/plugins/`), so
 * avp writes a plugin (src/agents/plugin-source.ts) that runs `avp hook --agent opencode` on `tool.execute.before`
 * (a refusal throws, which stops the tool and gives the model the reason), `tool.execute.after` (a refusal is
 * appended to the tool's output, which the model reads), `chat.message` (a user prompt: a new turn) and the
 * `session.idle` event (avp's Stop: a refusal becomes a follow-up prompt; the plugin's own `stop_hook_active` and
 * avp's counter end the loop). A sub-agent (the `task` tool's child session) is sent as its main session with
 * `agent_id`; its end is a SubagentStop (`subagent.stop` at the task's result, `session.idle.subagent` for a background
 * task), never a Stop. Tools: `write {filePath, content}`, `edit {filePath, oldString, newString,
 * replaceAll}`, `apply_patch {patchText}`, `bash {command}`, `read {filePath}` …
 *
 * Fail closed: the plugin refuses when avp exits non-zero, times out, is missing or answers something unreadable.
 */
import { homedir } from '../../os/home.ts';
import { join } from 'node:path';
import type { NormalizeSpec } from '../normalize.ts';
import { pluginAnswer, opencodePlugin } from '../plugin-source.ts';
import { defined, judgePostAtPre, normalizeReshaped, pick, type Raw } from '../reshape.ts';
import { obj } from '../normalize.ts';
import { projectAndUserFile } from '../install-paths.ts';
import type { EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

const EVENTS: Record<string, string> = {
  'tool.execute.before': 'PreToolUse',
  'tool.execute.after': 'PostToolUse',
  'chat.message': 'UserPromptSubmit',
  'session.idle': 'Stop',
  // A sub-agent's (the `task` tool's child session) end: at the task's result, or a background task's idle.
  'subagent.stop': 'SubagentStop',
  'session.idle.subagent': 'SubagentStop',
};

const fileInput = (i: Raw): Raw =>
  defined({
    ...i,
    file_path: pick(i, 'filePath', 'file_path'),
    old_string: pick(i, 'oldString', 'old_string'),
    new_string: pick(i, 'newString', 'new_string'),
    replace_all: typeof i.replaceAll === 'boolean' ? i.replaceAll : undefined,
  });

const TOOLS: Record<string, ToolMapping> = {
  write: { tool: 'Write', kind: 'write', input: fileInput },
  edit: { tool: 'Edit', kind: 'edit', input: fileInput },
  multiedit: {
    tool: 'MultiEdit',
    kind: 'edit',
    input: (i) => ({
      ...fileInput(i),
      edits: (Array.isArray(i.edits) ? i.edits : []).map((e) => fileInput(obj(e) ?? {})),
    }),
  },
  apply_patch: { tool: 'Edit', kind: 'edit', patchField: 'patchText' },
  patch: { tool: 'Edit', kind: 'edit', patchField: 'patchText' },
  bash: { tool: 'Bash', kind: 'shell' },
  read: { tool: 'Read', kind: 'read', input: fileInput },
  list: { tool: 'LS', kind: 'read' },
  glob: { tool: 'Glob', kind: 'read' },
  grep: { tool: 'Grep', kind: 'read' },
  webfetch: { tool: 'WebFetch', kind: 'other' },
  todowrite: { tool: 'TodoWrite', kind: 'other' },
  task: { tool: 'Task', kind: 'other' },
};

const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: false },
  PostToolUse: { stop: 'block', context: true, contextOnBlock: true },
  Stop: { stop: 'block', context: false },
  // The refusal joins the `task` tool's result, which the main agent reads (a background task's: report only).
  SubagentStop: { stop: 'block', context: false },
};

const SPEC: NormalizeSpec = {
  name: 'opencode',
  displayName: 'OpenCode',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: ['OPENCODE_PROJECT_DIR'],
  lastMessageField: 'last_assistant_message',
  response: () => undefined,
};

const home = (env: NodeJS.ProcessEnv) =>
  join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'opencode');

const opencode = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  normalize: (input, env) => judgePostAtPre(normalizeReshaped(SPEC, (raw) => raw, input, env)),
  render: pluginAnswer,
  install: {
    ...projectAndUserFile('.opencode', home, 'plugins', 'avp.ts'),
    timeoutUnit: 'seconds',
    events: Object.keys(EVENTS),
    // An `opencode.json` alone also says the project uses OpenCode.
    markers: (root, env) => ({ project: [join(root, '.opencode'), join(root, 'opencode.json')], user: [home(env)] }),
    layout: { kind: 'owned', files: (command, timeout, path) => [{ path, text: opencodePlugin(command, timeout) }] },
  },
  instead: {
    UserPromptSubmit: "OpenCode's chat.message cannot refuse a prompt: avp only starts a new turn there",
  },
});

export default opencode;
