/** The shapes `avp stats` and `avp report` share: what is read from the run logs, and what is computed from it. */
import type { TokenUsage, Violation } from '../judges/types.ts';

/** One run of one validator, as read back from a run-log line (src/runner/log.ts) and checked field by field. */
export interface RunRecord {
  ts: number;
  /** `YYYY-MM-DD` (UTC), the day the run is counted on. */
  day: string;
  validator: string;
  severity: string;
  status: 'passed' | 'failed' | 'error' | 'skipped';
  event: string;
  tool?: string;
  files: string[];
  durationMs: number;
  /** The agent's call the run belongs to (older lines have none: one call per line is assumed). */
  call: string;
  judge?: string;
  model?: string;
  cache: 'hit' | 'miss' | 'off' | 'none';
  tokens?: TokenUsage;
  details: Violation[];
}

/** One hook call from the counter (src/stats/calls.ts). */
export interface CallRecord {
  ts: number;
  day: string;
  call: string;
}

/** A line that could not be read: named, counted, never fatal. */
export interface SkippedLine {
  file: string;
  line: number;
  reason: string;
}

export interface LogData {
  runs: RunRecord[];
  calls: CallRecord[];
  /** True when a counter file covered the period (else the share is of the calls where some validator ran). */
  counted: boolean;
  skipped: SkippedLine[];
  /** The log files read. */
  files: string[];
}

/** Runs, outcomes, latency, tokens and cost of one validator over the period. */
export interface ValidatorStats {
  validator: string;
  runs: number;
  passed: number;
  /** Found violations at severity warn or info: the agent went on. */
  warned: number;
  /** Found violations at severity error: the agent was blocked. */
  blocked: number;
  /** Could not be evaluated (timeout, crash, bad answer, no judge): fail closed, so they block too. */
  errors: number;
  cacheHits: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** USD; `undefined` when some tokens were spent on a model with no price (see `unpricedModels`). */
  costUsd?: number;
  unpricedModels: string[];
  /** Distinct agent calls this validator ran on (and so added latency to). */
  calls: number;
  /** `calls` / the agent's calls in the period (0…1). */
  share: number;
}

export interface Stats {
  /** ISO times of the first and last record in the period (undefined when there is none). */
  from?: string;
  to?: string;
  since?: string;
  /** The agent's calls in the period (the share's denominator) and how they were counted. */
  agentCalls: number;
  counted: boolean;
  validators: ValidatorStats[];
  total: Omit<ValidatorStats, 'validator' | 'share' | 'p50Ms' | 'p95Ms' | 'maxMs'>;
  skipped: SkippedLine[];
}
