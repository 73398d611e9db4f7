/** The normalized hook event: what every host adapter produces and every later stage consumes. */

export type AgentName = 'claude' | 'gemini' | 'codex' | 'cursor';

export interface FileChange {
  /** Absolute path. */
  path: string;
  /** Relative to the project root with `/` separators; for a file outside the project, the absolute path. */
  relPath: string;
  inProject: boolean;
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
