/** The normalized hook event: what every host adapter produces and every later stage consumes. */

export type AgentName = 'claude' | 'gemini' | 'codex' | 'cursor';

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
  /** Content before the change, when known (`null` = the file did not exist). */
  before?: string | null;
  /** Content after the change, when known (`null` = deleted). */
  after?: string | null;
  /** Unified diff (a few lines of context) with `a/` `b/` headers over `relPath`. */
  diff?: string;
}

export interface HookEvent {
  agent: AgentName;
  /** Canonical (Claude Code) event name, also for events avp does not know. */
  event: string;
  tool?: string;
  toolInput?: Record<string, unknown>;
  toolResponse?: unknown;
  sessionId?: string;
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
  /** The host's input as received. */
  raw: Record<string, unknown>;
}
