/** `avp stats` as a table for people (stdout: it is the command's data; `--json` prints `Stats` as is). */
import type { Stats, ValidatorStats } from './types.ts';

/** Log text reaches a terminal: control characters (escape sequences a forged line could hold) are shown as `?`. */
export const printable = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatUsd(usd: number | undefined): string {
  if (usd === undefined) return '?';
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

const pct = (x: number) => `${(x * 100).toFixed(x > 0 && x < 0.1 ? 1 : 0)}%`;

const HEAD = [
  'validator',
  'runs',
  'pass',
  'warn',
  'block',
  'error',
  'cached',
  'p50',
  'p95',
  'max',
  'in tok',
  'out tok',
];

function row(v: ValidatorStats | (Stats['total'] & { validator: string; share: number })): string[] {
  const times = 'p50Ms' in v ? [formatMs(v.p50Ms), formatMs(v.p95Ms), formatMs(v.maxMs)] : ['', '', ''];
  return [
    printable(v.validator),
    String(v.runs),
    String(v.passed),
    String(v.warned),
    String(v.blocked),
    String(v.errors),
    String(v.cacheHits),
    ...times,
    formatTokens(v.inputTokens + v.cacheReadTokens + v.cacheWriteTokens),
    formatTokens(v.outputTokens),
    formatUsd(v.costUsd),
    pct(v.share),
  ];
}

/** The table: one line per validator, a total line, then what the numbers mean where it is not obvious. */
export function formatStats(s: Stats): string {
  if (!s.validators.length) {
    const where = s.since ? ` since ${s.since}` : '';
    return `No validator runs in the run log${where}. avp logs a line per validator run in .avp/logs/ once a hook call matches.\n`;
  }
  const head = [...HEAD, 'cost', 'calls'];
  const rows = s.validators.map(row);
  if (s.validators.length > 1)
    rows.push(row({ ...s.total, validator: 'total', share: s.agentCalls ? s.total.calls / s.agentCalls : 0 }));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [`avp stats: ${s.from?.slice(0, 16).replace('T', ' ')} → ${s.to?.slice(0, 16).replace('T', ' ')} UTC`];
  out.push(line(head), ...rows.map(line));
  out.push('');
  out.push(
    s.counted
      ? `calls: share of the agent's ${s.agentCalls} calls (tool calls and other hook events) the validator ran on, so added latency to`
      : `calls: share of the ${s.agentCalls} calls on which some validator ran (the hook-call counter does not cover the period)`,
  );
  out.push('in tok counts prompt-cache reads and writes too; cost is an estimate from the `prices` table in config');
  if (s.total.unpricedModels.length)
    out.push(`? = no price for ${s.total.unpricedModels.map(printable).join(', ')}: add it under "prices" in config`);
  return `${out.join('\n')}\n`;
}
