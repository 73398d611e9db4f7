/** The numbers behind `avp report`'s charts, from the checked run-log records of a period. */
import type { ModelPrice } from '../config/types.ts';
import { isBlock, percentile } from '../stats/aggregate.ts';
import { costOf, priceOf } from '../judges/prices.ts';
import type { RunRecord } from '../stats/types.ts';
import type { Series } from './svg.ts';

/** Dots drawn in the latency chart at most: past it every k-th run of each validator is drawn (lines use all). */
const MAX_DOTS = 3000;
/** Validators with their own colour in the latency chart (the palette's size); the rest are drawn as "others". */
const MAX_SERIES = 8;
const DAY = 86_400_000;

export interface ReportSeries {
  days: string[];
  latency: Series[];
  blocks: { blocked: number[]; warned: number[]; errors: number[] };
  tokens: { input: number[]; output: number[] };
  cost: number[];
  /** Days whose cost leaves out tokens of models with no price. */
  unpriced: string[];
  topBlockers: Array<{ name: string; value: number; note: string }>;
  topFiles: Array<{ name: string; value: number; note: string }>;
}

/** Every UTC day from the first to the last run. */
export function dayRange(runs: RunRecord[]): string[] {
  if (!runs.length) return [];
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of runs) [lo, hi] = [Math.min(lo, r.ts), Math.max(hi, r.ts)];
  const days: string[] = [];
  for (let t = Date.parse(`${new Date(lo).toISOString().slice(0, 10)}T00:00:00Z`); t <= hi; t += DAY)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

function latencySeries(runs: RunRecord[]): Series[] {
  const by = new Map<string, RunRecord[]>();
  for (const r of runs) {
    if (!by.has(r.validator)) by.set(r.validator, []);
    by.get(r.validator)!.push(r);
  }
  const ranked = [...by.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const groups = ranked.slice(0, MAX_SERIES - (ranked.length > MAX_SERIES ? 1 : 0));
  if (ranked.length > MAX_SERIES) groups.push(['others', ranked.slice(groups.length).flatMap(([, rs]) => rs)]);
  const step = Math.max(1, Math.ceil(runs.length / MAX_DOTS));
  return groups.map(([name, rs]) => {
    const sorted = [...rs].sort((a, b) => a.ts - b.ts);
    const perDay = new Map<string, number[]>();
    for (const r of sorted) {
      if (!perDay.has(r.day)) perDay.set(r.day, []);
      perDay.get(r.day)!.push(r.durationMs);
    }
    return {
      name,
      points: sorted
        .filter((_, i) => i % step === 0)
        .map((r) => ({
          t: r.ts,
          v: r.durationMs,
          label: `${r.validator} · ${new Date(r.ts).toISOString().slice(0, 19).replace('T', ' ')} · ${r.durationMs} ms · ${r.status}${r.cache === 'hit' ? ' (cached)' : ''}`,
        })),
      // The daily median at noon: the trend through the dots.
      line: [...perDay.entries()].map(([day, ms]) => ({
        t: Date.parse(`${day}T12:00:00Z`),
        v: percentile(
          ms.sort((a, b) => a - b),
          50,
        ),
      })),
    };
  });
}

function ranked(counts: Map<string, { n: number; notes: Map<string, number> }>, top: number) {
  return [...counts.entries()]
    .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([name, c]) => ({
      name,
      value: c.n,
      note: [...c.notes.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', '),
    }));
}

function bump(m: Map<string, { n: number; notes: Map<string, number> }>, key: string, note: string) {
  const c = m.get(key) ?? { n: 0, notes: new Map() };
  c.n++;
  c.notes.set(note, (c.notes.get(note) ?? 0) + 1);
  m.set(key, c);
}

/** Computes every chart's data. */
export function reportSeries(runs: RunRecord[], prices: Record<string, ModelPrice>): ReportSeries {
  const days = dayRange(runs);
  const index = new Map(days.map((d, i) => [d, i]));
  const zeros = () => days.map(() => 0);
  const s: ReportSeries = {
    days,
    latency: latencySeries(runs),
    blocks: { blocked: zeros(), warned: zeros(), errors: zeros() },
    tokens: { input: zeros(), output: zeros() },
    cost: zeros(),
    unpriced: [],
    topBlockers: [],
    topFiles: [],
  };
  const unpriced = new Set<string>();
  const blockers = new Map<string, { n: number; notes: Map<string, number> }>();
  const files = new Map<string, { n: number; notes: Map<string, number> }>();
  for (const r of runs) {
    const d = index.get(r.day)!;
    if (isBlock(r)) s.blocks.blocked[d]!++;
    else if (r.status === 'failed') s.blocks.warned[d]!++;
    else if (r.status === 'error') s.blocks.errors[d]!++;
    if (isBlock(r) || r.status === 'error') bump(blockers, r.validator, isBlock(r) ? 'findings' : 'validator errors');
    if (isBlock(r)) {
      const named = [...new Set(r.details.map((v) => v.file).filter((f): f is string => !!f))];
      for (const f of named.length ? named : r.files) bump(files, f, r.validator);
    }
    if (!r.tokens) continue;
    s.tokens.input[d]! += r.tokens.inputTokens + (r.tokens.cacheReadTokens ?? 0) + (r.tokens.cacheWriteTokens ?? 0);
    s.tokens.output[d]! += r.tokens.outputTokens;
    const price = r.model ? priceOf(prices, r.model) : undefined;
    if (price) s.cost[d]! += costOf(price, r.tokens, r.judge);
    else unpriced.add(r.day);
  }
  s.unpriced = [...unpriced].sort();
  s.topBlockers = ranked(blockers, 10);
  s.topFiles = ranked(files, 15);
  return s;
}
