/**
 * Test builders for hook events: a `HookEvent` from a few fields, with Claude Code's raw field names mapped to the
 * neutral ones the core reads (as the Claude Code adapter does), so a test states what it means, not every field.
 */
import type { FileChange, HookEvent } from '../../src/protocol/event.ts';

const RAW_TO_NEUTRAL: Array<[string, keyof HookEvent]> = [
  ['agent_id', 'subagentId'],
  ['agent_type', 'subagentType'],
  ['tool_use_id', 'toolUseId'],
  ['prompt', 'prompt'],
  ['last_assistant_message', 'lastMessage'],
  ['error', 'error'],
  ['message', 'message'],
];

/** A HookEvent for `event` in `root`; `extra.raw` fields with Claude Code names also fill the neutral fields. */
export function hookEvent(root: string, event: string, extra: Partial<HookEvent> = {}): HookEvent {
  const e: HookEvent = { agent: 'claude', event, cwd: root, projectRoot: root, files: [], raw: {}, ...extra };
  for (const [rawKey, key] of RAW_TO_NEUTRAL) {
    const v = e.raw[rawKey];
    if (typeof v === 'string' && (e as unknown as Record<string, unknown>)[key] === undefined)
      (e as unknown as Record<string, unknown>)[key] = v;
  }
  return e;
}

/** A file change in `root` (relative path `rel`). */
export function fileChange(root: string, rel: string, fields: Partial<FileChange> = {}): FileChange {
  return { path: `${root}/${rel}`, relPath: rel, inProject: true, kind: 'update', ...fields };
}
