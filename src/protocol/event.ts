/**
 * The normalized hook event: what every agent adapter (src/agents/) produces and every later stage consumes. The
 * core reads only these fields, never an agent's own input (`raw`), so it speaks no agent's protocol.
 */
import type { EventName, Trigger } from './trigger.ts';

/** The agents avp speaks to; the adapter table (src/agents/index.ts) has one entry per name. */
export type AgentName =
  | 'claude'
  | 'codex'
  | 'gemini'
  | 'qwen'
  | 'droid'
  | 'copilot'
  | 'cursor'
  | 'windsurf'
  | 'cline'
  | 'kiro'
  | 'opencode'
  | 'amp';

/**
 * What a tool does, whatever the agent calls it: `write` creates or replaces a file, `edit` changes part of one (or,
 * for a patch, several), `shell` runs a command, `read` only looks. Everything else (web, MCP, tasks) is `other`.
 */
export type ToolKind = 'write' | 'edit' | 'shell' | 'read' | 'other';

export interface FileChange {
  /** Absolute real path: what the change really touches (symlinks followed, also a dangling one a Write creates). */
  path: string;
  /** Relative to the project root with `/` separators; for a file outside the project, the absolute path. */
  relPath: string;
  inProject: boolean;
  /** The absolute path as the tool input named it, when it differs from `path` (a symlink, `..`, another case). */
  namedPath?: string;
  /** The file system holding the file ignores case: `match.files` and protected names compare without case. */
  caseInsensitive?: boolean;
  /**
   * Why the content after the change could not be reconstructed (an edit whose result exceeds avp's size or time
   * bound): validators that would look at this file get a validator error instead of a verdict on a partial change.
   */
  unavailable?: string;
  kind: 'create' | 'update' | 'delete';
  /** A patch's own text for this file (Codex `apply_patch`, Droid `ApplyPatch`): the after-content comes from it. */
  patch?: string;
  /** A patch moved the file: where it was before (absolute real path). */
  movedFrom?: string;
  /** Content before the change, when known (`null` = the file did not exist). */
  before?: string | null;
  /** Content after the change, when known (`null` = deleted). */
  after?: string | null;
  /** Unified diff (a few lines of context) with `a/` `b/` headers over `relPath`. */
  diff?: string;
}

export interface HookEvent {
  agent: AgentName;
  /** The AVP trigger (Claude Code's event names, the validators' language), also for events avp does not know. */
  event: EventName;
  /** The event's name in the agent's own protocol (`BeforeTool` on Gemini CLI), when it differs from `event`. */
  agentEvent?: string;
  /**
   * The canonical tool name (Claude Code's: `Write`, `Edit`, `Bash`, `Read` …) that `match.tools` and scripts see;
   * the agent's own name when avp has no canonical one for it (MCP tools, agent-specific tools).
   */
  tool?: string;
  /** The agent's own name for the tool (`write_file`, `apply_patch`), when it differs from `tool`. */
  agentTool?: string;
  /** Further canonical names the call also counts as (a patch that adds one file and edits another: Write too). */
  toolAliases?: string[];
  toolKind?: ToolKind;
  /** The tool input with Claude Code's field names (`file_path`, `old_string`, `command` …): one shape for scripts. */
  toolInput?: Record<string, unknown>;
  toolResponse?: unknown;
  /** The agent's id of this tool call (pairs a PreToolUse with its PostToolUse). */
  toolUseId?: string;
  sessionId?: string;
  /**
   * The agent's id of the user's turn (Codex `turn_id`, Qwen Code `prompt_id`), when it has one: a second prompt
   * event with the same id is the same turn.
   */
  turnId?: string;
  /**
   * Set by session tracking: a prompt event repeating the current turn's id, which is no user prompt (Qwen Code fires
   * UserPromptSubmit before every model call, with tool results or avp's own Stop reason as the "prompt"). Nothing
   * is judged on it.
   */
  sameTurn?: boolean;
  /** The user's prompt (UserPromptSubmit, and on agents that repeat it, the Stop). */
  prompt?: string;
  /** The agent's last message (Stop/SubagentStop). */
  lastMessage?: string;
  /** A failed tool's error (PostToolUseFailure) or a notification's text. */
  error?: string;
  message?: string;
  /** The sub-agent the event comes from (undefined for the main agent) and its type. */
  subagentId?: string;
  subagentType?: string;
  /**
   * The trigger whose validators also judge this event because the agent never sends that event for this call:
   * Codex runs a shell `apply_patch` with a PreToolUse and no PostToolUse, so PostToolUse validators judge the patch
   * before it applies (a refusal before the fact instead of a block after it).
   */
  alsoTrigger?: Trigger;
  cwd: string;
  projectRoot: string;
  /**
   * True when `projectRoot` is only a fallback (no project found, or the directory does not exist): avp keeps no
   * state, logs or caches there and never creates `.avp/` under it.
   */
  stateless?: boolean;
  /** Files this event changed (tool events) or the session turn changed (Stop/SubagentStop). */
  files: FileChange[];
  /**
   * The value `triggerMatcher` is compared with: `source`, `reason`, `trigger`, `notification_type` or `agent_type`.
   */
  matcherValue?: string;
  stopHookActive?: boolean;
  /** The agent's input as received (for logs and the verdict cache; the core never reads it). */
  raw: Record<string, unknown>;
}

/** The kind of each canonical tool: what an event built without an adapter (`avp check`, tests) is taken to be. */
const CANONICAL_KINDS: Readonly<Record<string, ToolKind>> = {
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
  Bash: 'shell',
  Read: 'read',
  Grep: 'read',
  Glob: 'read',
  LS: 'read',
};

/** The event's tool kind: the adapter's, else the canonical tool's; undefined without a tool. */
export function toolKindOf(event: Pick<HookEvent, 'tool' | 'toolKind'>): ToolKind | undefined {
  if (event.toolKind) return event.toolKind;
  return event.tool === undefined ? undefined : (CANONICAL_KINDS[event.tool] ?? 'other');
}
