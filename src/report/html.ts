/**
 * `avp report`'s page: one self-contained HTML file — inline CSS and SVG, no script, no font, no image, no link to
 * anything — so it opens offline, can be mailed or attached to CI, and its Content-Security-Policy forbids every
 * fetch and every script: text from the logs (file names the agent chose) can do nothing even if it slipped through.
 */
import { formatMs, formatTokens, formatUsd } from '../stats/format.ts';
import type { Stats } from '../stats/types.ts';
import type { ReportSeries } from './series.ts';
import { dayBars, esc, rankBars, timeScatter } from './svg.ts';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff;margin:0 auto;
max-width:1560px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:0 0 8px}p.sub{color:#59636e;margin:0 0 20px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(640px,1fr));gap:20px}
section{border:1px solid #d1d9e0;border-radius:8px;padding:14px 16px;overflow-x:auto}
section p{color:#59636e;margin:0 0 8px;font-size:13px}
svg.chart{width:100%;height:auto;font-size:11px}svg .grid{stroke:#eaeef2}svg .tick,svg .legend{fill:#59636e}
svg .label{fill:#1f2328;font-size:12px}svg .empty{fill:#8c959f;font-size:14px}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{padding:4px 8px;border-bottom:1px solid #eaeef2;
text-align:right;white-space:nowrap}th:first-child,td:first-child{text-align:left}th{color:#59636e;font-weight:600}
tr.total td{font-weight:600;border-top:2px solid #d1d9e0}
.kpis{display:flex;gap:28px;flex-wrap:wrap;margin:0 0 20px}.kpi b{display:block;font-size:22px}.kpi{color:#59636e}
`;

const pct = (x: number) => `${(x * 100).toFixed(x > 0 && x < 0.1 ? 1 : 0)}%`;

function table(stats: Stats): string {
  const head = ['validator', 'runs', 'passed', 'warned', 'blocked', 'errors', 'cached', 'p50', 'p95', 'max'];
  const cells = (v: Stats['validators'][number]) => [
    v.validator,
    v.runs,
    v.passed,
    v.warned,
    v.blocked,
    v.errors,
    v.cacheHits,
    formatMs(v.p50Ms),
    formatMs(v.p95Ms),
    formatMs(v.maxMs),
    formatTokens(v.inputTokens + v.cacheReadTokens + v.cacheWriteTokens),
    formatTokens(v.outputTokens),
    formatUsd(v.costUsd),
    pct(v.share),
  ];
  const t = stats.total;
  const total = ['total', t.runs, t.passed, t.warned, t.blocked, t.errors, t.cacheHits, '', '', ''];
  const totalTail = [
    formatTokens(t.inputTokens + t.cacheReadTokens + t.cacheWriteTokens),
    formatTokens(t.outputTokens),
    formatUsd(t.costUsd),
    pct(stats.agentCalls ? t.calls / stats.agentCalls : 0),
  ];
  const tr = (c: Array<string | number>, cls = '') =>
    `<tr${cls ? ` class="${cls}"` : ''}>${c.map((x) => `<td>${esc(String(x))}</td>`).join('')}</tr>`;
  return `<table data-table="validators"><thead><tr>${[...head, 'tokens in', 'tokens out', 'cost', 'calls slowed']
    .map((h) => `<th>${h}</th>`)
    .join('')}</tr></thead><tbody>${stats.validators.map((v) => tr(cells(v))).join('')}${
    stats.validators.length > 1 ? tr([...total, ...totalTail], 'total') : ''
  }</tbody></table>`;
}

function section(title: string, note: string, body: string): string {
  return `<section><h2>${esc(title)}</h2><p>${esc(note)}</p>${body}</section>`;
}

/** The whole page. `generated` is the time the report was made (ISO). */
export function reportHtml(stats: Stats, s: ReportSeries, generated: string, project: string): string {
  const t = stats.total;
  const period = stats.from ? `${stats.from.slice(0, 10)} → ${stats.to!.slice(0, 10)} (UTC)` : 'no runs';
  const kpi = (label: string, value: string) => `<div class="kpi"><b>${esc(value)}</b>${esc(label)}</div>`;
  const share = stats.counted
    ? `of the agent's ${stats.agentCalls} calls`
    : `of the ${stats.agentCalls} calls on which a validator ran`;
  const calls = stats.agentCalls ? t.calls / stats.agentCalls : 0;
  const costNote = s.unpriced.length
    ? `Tokens of models with no price (add them under "prices" in config) are left out on ${s.unpriced.length} day(s).`
    : 'Estimated from the price table in config (USD per million tokens).';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>avp report — ${esc(project)}</title><style>${CSS}</style></head><body>
<h1>avp report</h1>
<p class="sub">${esc(project)} · ${esc(period)} · made ${esc(generated.slice(0, 16).replace('T', ' '))} UTC</p>
<div class="kpis">${kpi('validator runs', String(t.runs))}${kpi('blocked (findings)', String(t.blocked))}${kpi(
    'validator errors',
    String(t.errors),
  )}${kpi('verdicts from the cache', String(t.cacheHits))}${kpi(
    'tokens',
    formatTokens(t.inputTokens + t.outputTokens + t.cacheReadTokens + t.cacheWriteTokens),
  )}${kpi('estimated cost', formatUsd(t.costUsd))}${kpi(`calls slowed, ${share}`, pct(calls))}</div>
<div class="grid">
${section(
  'Latency per validator over time',
  'Each dot is one run (hover for details); the line is the daily median.',
  timeScatter('latency', 'Latency per validator over time', s.latency, formatMs),
)}
${section(
  'Blocks per day',
  'Runs that stopped the agent (findings at severity error), warnings, and validator errors (which block too).',
  dayBars(
    'blocks',
    'Blocks per day',
    s.days,
    [
      { name: 'blocked', values: s.blocks.blocked, colour: '#e15759' },
      { name: 'warned', values: s.blocks.warned, colour: '#f28e2b' },
      { name: 'validator errors', values: s.blocks.errors, colour: '#b07aa1' },
    ],
    (v) => String(v),
    true,
  ),
)}
${section(
  'Tokens per day',
  'Prompt tokens (with prompt-cache reads and writes) and answer tokens of LLM validators.',
  dayBars(
    'tokens',
    'Tokens per day',
    s.days,
    [
      { name: 'input', values: s.tokens.input, colour: '#4e79a7' },
      { name: 'output', values: s.tokens.output, colour: '#76b7b2' },
    ],
    formatTokens,
  ),
)}
${section(
  'Estimated cost per day',
  costNote,
  dayBars(
    'cost',
    'Estimated cost per day',
    s.days,
    [{ name: 'USD', values: s.cost, colour: '#59a14f' }],
    // Axis steps such as 0.0125 need their digits: three significant ones.
    (v) => `$${Number(v.toPrecision(3))}`,
  ),
)}
${section(
  'The validators that block most',
  'Blocking findings and validator errors per validator.',
  rankBars('blockers', 'The validators that block most', s.topBlockers),
)}
${section(
  'The files they block on',
  'Files named by blocking findings (else the files of the blocked change), with the validators that blocked.',
  rankBars('files', 'The files they block on', s.topFiles, '#f28e2b'),
)}
</div>
<section style="margin-top:20px"><h2>Per validator</h2>${table(stats)}</section>
</body></html>
`;
}
