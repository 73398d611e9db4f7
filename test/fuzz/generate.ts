/**
 * Generated Claude Code hook inputs for the fuzz test. The well-formed base of every event follows the captured
 * fixtures (test/fixtures/hook/claude-code: session_id, transcript_path, cwd, permission_mode, effort, tool_input /
 * tool_response shapes); then fields are mutated (wrong types, missing, huge, unicode, NUL, odd paths) and sometimes
 * the text itself (truncated, duplicated keys, an array, several documents, raw control characters, empty).
 * Whether a case must block is decided in oracle.ts from what was generated, never by asking avp.
 */
import { mix, Rng } from './rng.ts';
import { cwdValue, filePath, junk, nested, text, type FuzzLayout } from './values.ts';

/** The 13 AVP triggers. */
export const TRIGGERS = [
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
  'Setup',
  'PreCompact',
  'Notification',
] as const;
/** Event names avp does not know, including names of Object.prototype members. */
const UNKNOWN_EVENTS = ['PermissionDenied', 'TaskCompleted', 'Frobnicate', 'constructor', 'toString', 'hasOwnProperty'];
/** Values that are not event names at all. */
const NOT_EVENT_NAMES: unknown[] = ['', ' PostToolUse', 'Stop\n', '1Stop', 'Post-Tool', '__proto__', 'a b', 42, null];
const TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'Read', 'mcp__x__y'] as const;
const ODD_TOOLS = ['write', 'Write ', 'mcp__fs__Write', 'Frobnicate', 'constructor', '', 'WriteFile', 'Edit|Write'];
const SESSIONS = ['704a1f77-5fd8-4eda-8cf1-7bf70fd23970', 'fuzz-session-2', '../../escape', 'nul\u0000id', 'é🙂', ''];

export interface GeneratedCase {
  /** Case number within the run. */
  n: number;
  /** What was generated, for failure messages. */
  label: string;
  /** The exact stdin text. */
  stdin: string;
  /** Extra environment for the call (CLAUDE_PROJECT_DIR or not). */
  env: Record<string, string>;
}

function toolInput(r: Rng, l: FuzzLayout, tool: string): Record<string, unknown> {
  const path = filePath(r, l);
  switch (tool) {
    case 'Write':
      return { file_path: path, content: text(r) };
    case 'Edit':
      return { file_path: path, old_string: text(r, false), new_string: text(r), replace_all: r.chance(0.3) };
    case 'MultiEdit':
      return {
        file_path: path,
        edits: Array.from({ length: r.between(0, 4) }, () => ({
          old_string: r.chance(0.2) ? '' : text(r, false),
          new_string: text(r),
          replace_all: r.pick([true, false, undefined]),
        })),
      };
    case 'NotebookEdit':
      return {
        notebook_path: path,
        new_source: text(r),
        cell_id: 'c1',
        edit_mode: r.pick(['replace', 'insert', 'delete']),
      };
    case 'Bash':
      return { command: r.pick(['ls', 'echo hi > /dev/null', 'true']), description: text(r, false) };
    case 'Read':
      return { file_path: path, offset: 1, limit: 10 };
    default:
      return { arbitrary: junk(r), path };
  }
}

function toolResponse(r: Rng, tool: string, input: Record<string, unknown>): unknown {
  if (tool === 'Write') {
    const created = r.chance(0.5);
    return {
      type: created ? 'create' : 'update',
      filePath: input.file_path,
      content: input.content,
      structuredPatch: [],
      originalFile: created ? null : text(r, false),
      userModified: false,
    };
  }
  if (tool === 'Edit' || tool === 'MultiEdit') {
    return {
      filePath: input.file_path,
      originalFile: r.chance(0.8) ? `${input.old_string ?? ''}\n${text(r, false)}` : null,
      structuredPatch: r.chance(0.5)
        ? [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b', r.chance(0.2) ? junk(r) : ' c'] }]
        : [],
      userModified: false,
      replaceAll: input.replace_all === true,
    };
  }
  return r.pick([text(r, false), { stdout: text(r, false), stderr: '', interrupted: false }, null]);
}

/** A well-formed event (before mutations) for `name`. */
function baseEvent(r: Rng, l: FuzzLayout, name: string, relativeCwd: boolean): Record<string, unknown> {
  const session = r.pick(SESSIONS);
  const e: Record<string, unknown> = {
    session_id: session,
    transcript_path: `/home/dev/.claude/projects/-home-dev-project/${session}.jsonl`,
    cwd: cwdValue(r, l, relativeCwd),
    permission_mode: r.pick(['default', 'bypassPermissions', 'plan']),
    effort: { level: 'high' },
    hook_event_name: name,
  };
  if (e.cwd === undefined) delete e.cwd;
  if (['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied'].includes(name)) {
    const tool = r.chance(0.85) ? r.weighted(TOOLS.map((t, i) => [i < 3 ? 4 : 1, t] as const)) : r.pick(ODD_TOOLS);
    e.tool_name = tool;
    e.tool_input = toolInput(r, l, tool);
    if (name === 'PostToolUse') e.tool_response = toolResponse(r, tool, e.tool_input as Record<string, unknown>);
    if (name === 'PostToolUseFailure') e.error = text(r, false);
    e.tool_use_id = `toolu_fuzz_${r.int(1e6)}`;
  } else if (name === 'Stop' || name === 'SubagentStop') {
    e.stop_hook_active = r.pick([false, false, true, 'true', 1, undefined]);
    e.last_assistant_message = text(r);
    if (name === 'SubagentStop') Object.assign(e, { agent_id: r.pick(['a1', '../x']), agent_type: 'general' });
  } else if (name === 'UserPromptSubmit') e.prompt = text(r);
  else if (name === 'Notification') Object.assign(e, { message: text(r), notification_type: text(r, false) });
  else if (name === 'SessionStart') e.source = r.pick(['startup', 'resume', 'clear', text(r, false)]);
  else if (name === 'SessionEnd') e.reason = r.pick(['exit', 'logout', 'other']);
  else if (name === 'PreCompact' || name === 'Setup') e.trigger = r.pick(['manual', 'auto', 'init']);
  else if (name === 'SubagentStart') e.agent_type = text(r, false);
  else e.anything = junk(r);
  return e;
}

/** Replaces, deletes or inflates one field somewhere in the event (top level, tool_input or tool_response). */
function mutateField(r: Rng, e: Record<string, unknown>): string {
  const holders = [e, e.tool_input, e.tool_response].filter(
    (h): h is Record<string, unknown> => h !== null && typeof h === 'object' && !Array.isArray(h),
  );
  const holder = r.pick(holders);
  const keys = Object.keys(holder);
  const key = keys.length && r.chance(0.85) ? r.pick(keys) : r.pick(['junk', 'edits', 'file_path', '__proto__']);
  const how = r.weighted([
    [4, 'junk'],
    [2, 'delete'],
    [1, 'nested'],
    [2, 'text'],
  ] as const);
  if (how === 'delete') delete holder[key];
  else {
    const value = how === 'junk' ? junk(r) : how === 'nested' ? nested(r) : text(r);
    // defineProperty: a plain assignment to `__proto__` would set the prototype instead of writing the key.
    Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return `${how}:${key}`;
}

/** Text-level mutations of a serialized event. */
function mutateText(r: Rng, json: string, e: Record<string, unknown>): { stdin: string; how: string } {
  const how = r.pick([
    'truncate',
    'array',
    'two-docs',
    'duplicate-key',
    'raw-newline-in-string',
    'bom',
    'pretty',
    'trailing-garbage',
  ]);
  switch (how) {
    case 'truncate':
      return { stdin: json.slice(0, r.int(json.length)), how };
    case 'array':
      return { stdin: `[${json}]`, how };
    case 'two-docs':
      return { stdin: `${json}\n${json}\n`, how };
    case 'duplicate-key': {
      // JSON.parse keeps the last value: put a decoy first (or last, so the decoy wins).
      const key = r.pick(['hook_event_name', 'tool_name', 'cwd', 'tool_input']);
      const decoy = JSON.stringify(
        key === 'tool_input'
          ? { file_path: '/etc/passwd', content: '' }
          : key === 'cwd'
            ? '/'
            : r.pick(['Stop', 'Read', 'Frobnicate']),
      );
      return r.chance(0.5)
        ? { stdin: `{"${key}":${decoy},${json.slice(1)}`, how: `${how}-first:${key}` }
        : {
            stdin: `${json.slice(0, -1)}${Object.keys(e).length ? ',' : ''}"${key}":${decoy}}`,
            how: `${how}-last:${key}`,
          };
    }
    case 'raw-newline-in-string':
      return { stdin: json.replace('\\n', '\n').replace('"hook_event_name":"', '"hook_event_name":"\t'), how };
    case 'bom':
      return { stdin: `\ufeff${json}`, how };
    case 'pretty':
      return { stdin: JSON.stringify(JSON.parse(json), null, 2), how };
    default:
      return { stdin: `${json}}`, how };
  }
}

/** Inputs that are not derived from an event at all. */
const GARBAGE = [
  '',
  '   \n\t ',
  'null',
  'true',
  '42',
  '"PostToolUse"',
  '[]',
  '[1,2]',
  '{}',
  'hook_event_name=Stop',
  '\u0000',
];

/**
 * Case `n` of the run with `seed`: independent of every other case, so it can be replayed alone, and the same for
 * the in-process and the binary runner.
 */
export function generateCase(seed: number, n: number, l: FuzzLayout): GeneratedCase {
  const r = new Rng(mix(seed, n));
  const env: Record<string, string> = {};
  // Claude Code always sets CLAUDE_PROJECT_DIR; without it the project root comes from the cwd.
  const hostDir = r.chance(0.9);
  if (hostDir) env.CLAUDE_PROJECT_DIR = l.root;
  if (r.chance(0.05)) return { n, label: 'garbage', stdin: r.pick(GARBAGE), env };

  const name = r.weighted<unknown>([
    [10, 'PreToolUse'],
    [10, 'PostToolUse'],
    [3, 'Stop'],
    [8, TRIGGERS[r.int(TRIGGERS.length)]],
    [2, r.pick(UNKNOWN_EVENTS)],
    [1, r.pick(NOT_EVENT_NAMES)],
  ]);
  const e = baseEvent(r, l, typeof name === 'string' ? name : 'PostToolUse', hostDir);
  if (typeof name !== 'string') e.hook_event_name = name;
  const mutations: string[] = [];
  for (
    let i = r.weighted([
      [6, 0],
      [3, 1],
      [1, 3],
    ] as const);
    i > 0;
    i--
  )
    mutations.push(mutateField(r, e));
  // Without CLAUDE_PROJECT_DIR a missing or relative cwd would make the runner's own cwd (in-process: this repository)
  // the project root: keep the root in the fuzz project.
  if (!hostDir && (e.cwd === undefined || (typeof e.cwd === 'string' && !e.cwd.startsWith('/')))) e.cwd = l.root;
  let stdin = JSON.stringify(e);
  if (r.chance(0.1)) {
    const m = mutateText(r, stdin, e);
    stdin = m.stdin;
    mutations.push(m.how);
  } else if (r.chance(0.5)) stdin += '\n';
  const label = `${String(name)}/${String(e.tool_name ?? '-')}${mutations.length ? ` [${mutations.join(', ')}]` : ''}`;
  return { n, label: hostDir ? label : `${label} (no CLAUDE_PROJECT_DIR)`, stdin, env };
}
