/**
 * The Stop loop guard. A Stop validator that keeps failing would make the agent continue forever (Claude Code gives
 * up only after 8 forced continuations, and users report long, costly loops). Policy:
 * - a Stop with `stop_hook_active: false` starts a new series; one with `true` continues the series;
 * - avp blocks at most `maxStopBlocks` consecutive Stops per session and agent (default 3); the next Stop of the
 *   series passes, with a `systemMessage` telling the user what still fails;
 * - the counter resets when a Stop passes, when avp releases one, and when a new user prompt arrives.
 * The count is read and extended under a lock, and one Stop delivered to two avp processes (avp installed in two
 * settings files with different command strings) is counted once (same input and transcript state = same Stop).
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type { HookEvent } from '../../event.ts';
import { withLock } from './lock.ts';
import { appendRecords, readRecords, type SessionRecord } from './store.ts';
import { agentOf } from './turn.ts';

/** Two identical Stop inputs closer than this are one Stop seen by two hook processes. */
const DUPLICATE_WINDOW_MS = 3000;

export interface GuardDecision {
  block: boolean;
  systemMessage?: string;
}

type GuardRecord = Extract<SessionRecord, { t: 'stop-block' | 'stop-pass' | 'stop-released' }>;

/** Consecutive blocks for `agent` since the last reset. Pure over the records. */
export function consecutiveBlocks(records: SessionRecord[], agent: string | undefined): number {
  return seriesState(records, agent).blocks;
}

/**
 * The current Stop series of `agent`: blocks since the last reset, and whether avp already released it (a host
 * that keeps continuing after a release must not be blocked again within the same series).
 */
export function seriesState(records: SessionRecord[], agent: string | undefined): { blocks: number; released: boolean } {
  let blocks = 0;
  let released = false;
  for (const r of records) {
    if (r.t === 'turn' && agent === undefined) {
      blocks = 0;
      released = false;
    } else if (r.agent !== agent) continue;
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

function lastGuardRecord(records: SessionRecord[], agent: string | undefined): GuardRecord | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if ((r.t === 'stop-block' || r.t === 'stop-pass' || r.t === 'stop-released') && r.agent === agent) return r;
  }
  return undefined;
}

/**
 * Identifies one Stop across the avp processes that receive it. The input alone is not enough: consecutive forced
 * continuations often carry byte-identical input (same prompt id, same "Done." message), but each one first appends
 * to the transcript, so the transcript's size and mtime tell them apart. Without a transcript, no dedup (count all).
 */
function stopKey(event: HookEvent): string | undefined {
  const transcript = event.raw?.agent_transcript_path ?? event.raw?.transcript_path;
  if (typeof transcript !== 'string') return undefined;
  let stamp: string;
  try {
    const st = statSync(transcript);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
  return createHash('sha1').update(JSON.stringify(event.raw ?? {})).update(stamp).digest('hex').slice(0, 16);
}

export function releaseMessage(blocks: number, max: number, event: HookEvent, remaining?: string): string {
  const who = agentOf(event) ? `sub-agent ${String(event.raw.agent_type ?? agentOf(event))}` : 'the agent';
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
  const key = stopKey(event);
  return withLock(dir, 'stop', () => {
    const records = readRecords(dir);
    const last = lastGuardRecord(records, agent);
    if (key && last && last.key === key && Date.now() - last.ts < DUPLICATE_WINDOW_MS) {
      // The same Stop, judged by a second avp process: give the same answer, count it once.
      if (last.t === 'stop-released') return { block: false, systemMessage: releaseMessage(last.blocks ?? 0, maxStopBlocks, event, remaining) };
      return { block: last.t === 'stop-block' };
    }
    const base = { ts: Date.now(), ...(key ? { key } : {}), ...(agent ? { agent } : {}) };
    if (!wantsBlock) {
      appendRecords(dir, [{ t: 'stop-pass', ...base }]);
      return { block: false };
    }
    // Without stop_hook_active the host says this Stop is not a forced continuation: a new series starts.
    const series = event.stopHookActive ? seriesState(records, agent) : { blocks: 0, released: false };
    if (series.released) {
      appendRecords(dir, [{ t: 'stop-released', ...base, blocks: last?.t === 'stop-released' ? (last.blocks ?? maxStopBlocks) : maxStopBlocks }]);
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
