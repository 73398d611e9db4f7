/**
 * The Stop loop guard. A Stop validator that keeps failing would make the agent continue forever (Claude Code gives
 * up only after 8 forced continuations, and users report long, costly loops). Policy:
 * - a Stop with `stop_hook_active: false` starts a new series; one with `true` continues the series;
 * - avp blocks at most `maxStopBlocks` consecutive Stops per session and agent (default 3); the next Stop of the
 *   series passes, with a `systemMessage` telling the user what still fails;
 * - the counter resets when a Stop passes, when avp releases one, and when a new user prompt arrives.
 * The count is read and extended under a lock. Every Stop counts: consecutive forced continuations often carry
 * byte-identical input and the transcript is not always flushed between them, so "the same Stop seen by two avp
 * processes" (avp installed twice under different command strings) cannot be told apart safely; counting it twice
 * only makes the guard release earlier, never later.
 */
import type { HookEvent } from '../protocol/event.ts';
import { withLock } from '../os/dir-lock.ts';
import { appendRecords, readRecords, type SessionRecord } from './store.ts';
import { agentOf } from './turn.ts';

export interface GuardDecision {
  block: boolean;
  systemMessage?: string;
}

/**
 * The current Stop series of `agent`: blocks since the last reset, and whether avp already released it (a host
 * that keeps continuing after a release must not be blocked again within the same series). Pure over the records.
 */
export function seriesState(
  records: SessionRecord[],
  agent: string | undefined,
): { blocks: number; released: boolean } {
  let blocks = 0;
  let released = false;
  for (const r of records) {
    if (r.t === 'turn' && agent === undefined) {
      blocks = 0;
      released = false;
    } else if (r.t === 'turn' || r.t === 'change' || r.agent !== agent) continue;
    else if (r.t === 'stop-pass') {
      blocks = 0;
      released = false;
    } else if (r.t === 'stop-released') {
      blocks = 0;
      released = true;
    } else if (r.t === 'stop-block') {
      blocks = r.first ? 1 : blocks + 1;
      released = false;
    }
  }
  return { blocks, released };
}

export function releaseMessage(blocks: number, max: number, event: HookEvent, remaining?: string): string {
  const who = agentOf(event) ? `sub-agent ${event.subagentType ?? agentOf(event)}` : 'the agent';
  return (
    `avp: ${who} was sent back ${blocks} time${blocks === 1 ? '' : 's'} by Stop validators in a row ` +
    `(maxStopBlocks: ${max}), so avp let it stop. Still failing${remaining ? `:\n${remaining}` : ' — see the validators above.'}\n` +
    'Fix these by hand, or raise `maxStopBlocks` in the avp config.'
  );
}

/** Decides whether a Stop/SubagentStop that validators want to block is blocked; records the decision. */
export async function guardStop(
  dir: string,
  event: HookEvent,
  wantsBlock: boolean,
  maxStopBlocks: number,
  remaining?: string,
): Promise<GuardDecision> {
  const agent = agentOf(event);
  return withLock(dir, 'stop', () => {
    const records = readRecords(dir);
    const base = { ts: Date.now(), ...(agent ? { agent } : {}) };
    if (!wantsBlock) {
      appendRecords(dir, [{ t: 'stop-pass', ...base }]);
      return { block: false };
    }
    // Without stop_hook_active the host says this Stop is not a forced continuation: a new series starts.
    const series = event.stopHookActive ? seriesState(records, agent) : { blocks: 0, released: false };
    if (series.released) {
      appendRecords(dir, [{ t: 'stop-released', ...base, blocks: maxStopBlocks }]);
      return { block: false, systemMessage: releaseMessage(maxStopBlocks, maxStopBlocks, event, remaining) };
    }
    const blocks = series.blocks;
    if (blocks >= maxStopBlocks) {
      appendRecords(dir, [{ t: 'stop-released', ...base, blocks }]);
      return { block: false, systemMessage: releaseMessage(blocks, maxStopBlocks, event, remaining) };
    }
    appendRecords(dir, [{ t: 'stop-block', ...base, ...(event.stopHookActive ? {} : { first: true }) }]);
    return { block: true };
  });
}
