/**
 * Amp (its plugin API is experimental). Plugins are TypeScript files in `.amp/plugins/` or
 * `~/.config/amp/plugins/`, run only when Amp starts with `PLUGINS=all`. avp writes one
 * (src/agents/plugin-source.ts) whose `tool.call` handler runs `avp hook --agent amp` and answers a refusal with
 * `{action: "reject-and-continue", message}`: the tool does not run and the model reads avp's reason. `tool.call` is
 * Amp's only blocking point avp uses, so a file change is also judged by the PostToolUse validators there.
 * Tools: `Bash {cmd}`, `create_file {path, content}`, `edit_file {path, old_str, new_str, replace_all}`,
 * `Read {path}` …
 *
 * Fail closed: the plugin rejects the call when avp exits non-zero, times out, is missing or answers unreadably.
 */
import { homedir } from '../../os/home.ts';
import { join } from 'node:path';
import type { NormalizeSpec } from '../normalize.ts';
import { ampPlugin, pluginAnswer } from '../plugin-source.ts';
import { defined, judgePostAtPre, normalizeReshaped, pick, type Raw } from '../reshape.ts';
import { projectAndUserFile } from '../install-paths.ts';
import type { EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

const EVENTS: Record<string, string> = { 'tool.call': 'PreToolUse' };

const fileInput = (i: Raw): Raw =>
  defined({
    ...i,
    file_path: pick(i, 'path', 'file_path'),
    old_string: pick(i, 'old_str', 'old_string'),
    new_string: pick(i, 'new_str', 'new_string'),
  });

const TOOLS: Record<string, ToolMapping> = {
  Bash: { tool: 'Bash', kind: 'shell', input: (i) => defined({ ...i, command: pick(i, 'cmd', 'command') }) },
  create_file: { tool: 'Write', kind: 'write', input: fileInput },
  edit_file: { tool: 'Edit', kind: 'edit', input: fileInput },
  apply_patch: { tool: 'Edit', kind: 'edit', patchField: 'patch' },
  Read: { tool: 'Read', kind: 'read', input: fileInput },
  Grep: { tool: 'Grep', kind: 'read' },
  glob: { tool: 'Glob', kind: 'read' },
  list_directory: { tool: 'LS', kind: 'read' },
  read_web_page: { tool: 'WebFetch', kind: 'other' },
  web_search: { tool: 'WebSearch', kind: 'other' },
  Task: { tool: 'Task', kind: 'other' },
};

const ABILITIES: EventAbilities = { PreToolUse: { stop: 'deny', context: false } };

const SPEC: NormalizeSpec = {
  name: 'amp',
  displayName: 'Amp',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: [],
  lastMessageField: 'last_assistant_message',
  response: () => undefined,
};

const home = (env: NodeJS.ProcessEnv) => join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'amp');

const amp = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  normalize: (input, env) => judgePostAtPre(normalizeReshaped(SPEC, (raw) => raw, input, env)),
  render: pluginAnswer,
  install: {
    ...projectAndUserFile('.amp', home, 'plugins', 'avp.ts'),
    timeoutUnit: 'seconds',
    events: Object.keys(EVENTS),
    layout: { kind: 'owned', files: (command, timeout, path) => [{ path, text: ampPlugin(command, timeout) }] },
  },
  instead: {
    PostToolUse: "Amp's plugin answers only before a tool runs: PostToolUse validators judge file changes at tool.call",
    Stop: 'avp does not hook the end of an Amp turn: Stop validators do not run on Amp',
  },
});

export default amp;
