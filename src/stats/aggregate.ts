/**
 * Per-validator numbers over a period: runs and their outcomes, verdict-cache hits, latency percentiles, tokens,
 * estimated cost, and the share of the agent's calls each validator added latency to.
 */
import type { ModelPrice } from '../config/types.ts';
import { costOf, priceOf } from '../judges/prices.ts';
import type { LogData, RunRecord, Stats, ValidatorStats } from './types.ts';

/** Nearest-rank percentile of sorted values (0 for none). */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A run that stopped the agent for a finding (not a validator error): severity error and violations. */
export const isBlock = (r: RunRecord) => r.status === 'failed' && r.severity === 'error';

type Totals = Stats['total'];

function emptyTotals(): Totals {
  return {
    runs: 0,
    passed: 0,
    warned: 0,
    blocked: 0,
    errors: 0,
    cacheHits: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    unpricedModels: [],
    calls: 0,
  };
}

/** Adds runs to totals (cost stays a number only while every model with tokens has a price). */
function addRuns(t: Totals, runs: RunRecord[], prices: Record<string, ModelPrice>): void {
  const unpriced = new Set(t.unpricedModels);
  for (const r of runs) {
    t.runs++;
    if (r.status === 'passed') t.passed++;
    else if (r.status === 'error') t.errors++;
    else if (isBlock(r)) t.blocked++;
    else t.warned++;
    if (r.cache === 'hit') t.cacheHits++;
    if (!r.tokens) continue;
    t.inputTokens += r.tokens.inputTokens;
    t.outputTokens += r.tokens.outputTokens;
    t.cacheReadTokens += r.tokens.cacheReadTokens ?? 0;
    t.cacheWriteTokens += r.tokens.cacheWriteTokens ?? 0;
    const price = r.model ? priceOf(prices, r.model) : undefined;
    if (price) t.costUsd = (t.costUsd ?? 0) + costOf(price, r.tokens, r.judge);
    else unpriced.add(r.model ?? `(no model, judge ${r.judge ?? '?'})`);
  }
  t.unpricedModels = [...unpriced].sort();
  if (t.unpricedModels.length) delete t.costUsd;
}

/** The agent's calls in the period: the counter's, plus any the run log has that the counter missed. */
export function agentCallKeys(data: LogData): Set<string> {
  const keys = new Set(data.runs.map((r) => r.call));
  if (data.counted) for (const c of data.calls) keys.add(c.call);
  return keys;
}

/** Computes the stats of `data` (optionally of one validator), estimating costs with `prices`. */
export function computeStats(
  data: LogData,
  prices: Record<string, ModelPrice>,
  opts: { validator?: string; since?: number } = {},
): Stats {
  const agentCalls = agentCallKeys(data).size;
  const byValidator = new Map<string, RunRecord[]>();
  for (const r of data.runs) {
    if (opts.validator && r.validator !== opts.validator) continue;
    const list = byValidator.get(r.validator) ?? [];
    list.push(r);
    byValidator.set(r.validator, list);
  }
  const validators: ValidatorStats[] = [];
  const total = emptyTotals();
  for (const [validator, runs] of byValidator) {
    const t = emptyTotals();
    addRuns(t, runs, prices);
    addRuns(total, runs, prices);
    const ms = runs.map((r) => r.durationMs).sort((a, b) => a - b);
    const calls = new Set(runs.map((r) => r.call)).size;
    validators.push({
      validator,
      ...t,
      p50Ms: percentile(ms, 50),
      p95Ms: percentile(ms, 95),
      maxMs: ms.at(-1) ?? 0,
      calls,
      share: agentCalls ? calls / agentCalls : 0,
    });
  }
  total.calls = new Set([...byValidator.values()].flat().map((r) => r.call)).size;
  // Most runs first, then by name: the validators that cost the most time are on top.
  validators.sort((a, b) => b.runs - a.runs || a.validator.localeCompare(b.validator));
  let from = Infinity;
  let to = -Infinity;
  for (const list of byValidator.values())
    for (const r of list) [from, to] = [Math.min(from, r.ts), Math.max(to, r.ts)];
  return {
    ...(Number.isFinite(from) ? { from: new Date(from).toISOString(), to: new Date(to).toISOString() } : {}),
    ...(opts.since ? { since: new Date(opts.since).toISOString() } : {}),
    agentCalls,
    counted: data.counted,
    validators,
    total,
    skipped: data.skipped,
  };
}
