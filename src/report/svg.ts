/**
 * Hand-drawn SVG charts for `avp report`: a time scatter with lines, stacked day bars, and ranked horizontal bars.
 * Four chart shapes do not need a plotting library: no dependency to inline, no script in the page (it renders with
 * JavaScript off and under a CSP that forbids scripts), and the file stays small. Every mark carries a `<title>`, the
 * browser's own tooltip. All text from the logs is escaped: file names there are chosen by the agent.
 */

export const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7'];
const W = 760;
const H = 260;
const M = { l: 60, r: 16, t: 14, b: 42 };

/** Escapes text for HTML/SVG content and attribute values. */
export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const f1 = (x: number) => (Math.round(x * 10) / 10).toString();

/** A round upper bound (1, 2, 2.5, 5 × 10^k) and its ticks. */
export function niceTicks(max: number, count = 5, integer = false): number[] {
  if (!(max > 0)) return [0, 1];
  // Counts get whole-number steps: "0.2 blocks" is no tick.
  const raw = integer ? Math.max(1, max / count) : max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = (integer ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10]).map((m) => m * mag).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks.at(-1)! < max) ticks.push(Number((ticks.at(-1)! + step).toPrecision(12)));
  return ticks;
}

function frame(id: string, label: string, body: string): string {
  return `<svg class="chart" data-chart="${esc(id)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg"><title>${esc(label)}</title>${body}</svg>`;
}

function empty(id: string, label: string): string {
  return frame(
    id,
    label,
    `<text x="${W / 2}" y="${H / 2}" text-anchor="middle" class="empty">nothing in this period</text>`,
  );
}

/** The y axis: grid lines and labels; returns the scale. */
function yAxis(ticks: number[], fmt: (v: number) => string): { y: (v: number) => number; svg: string } {
  const top = ticks.at(-1)!;
  const y = (v: number) => M.t + (H - M.t - M.b) * (1 - v / top);
  const svg = ticks
    .map(
      (t) =>
        `<line class="grid" x1="${M.l}" x2="${W - M.r}" y1="${f1(y(t))}" y2="${f1(y(t))}"/><text class="tick" x="${M.l - 6}" y="${f1(y(t) + 4)}" text-anchor="end">${esc(fmt(t))}</text>`,
    )
    .join('');
  return { y, svg };
}

function legend(names: string[]): string {
  let x = M.l;
  return names
    .map((n, i) => {
      const item = `<rect x="${x}" y="${H - 14}" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/><text class="legend" x="${x + 14}" y="${H - 5}">${esc(n)}</text>`;
      x += 24 + Math.min(n.length, 28) * 6.5;
      return item;
    })
    .join('');
}

export interface Series {
  name: string;
  points: Array<{ t: number; v: number; label: string }>;
  /** Optional line through (t, v) points, e.g. a daily median. */
  line?: Array<{ t: number; v: number }>;
}

/** Dots over time, one colour per series, with an optional line each (latency per validator over time). */
export function timeScatter(id: string, label: string, series: Series[], fmt: (v: number) => string): string {
  const all = series.flatMap((s) => s.points);
  if (!all.length) return empty(id, label);
  let t0 = Infinity;
  let t1 = -Infinity;
  let vmax = 0;
  for (const p of all) [t0, t1, vmax] = [Math.min(t0, p.t), Math.max(t1, p.t), Math.max(vmax, p.v)];
  if (t1 === t0) [t0, t1] = [t0 - 3_600_000, t1 + 3_600_000];
  const x = (t: number) => M.l + ((W - M.l - M.r) * (t - t0)) / (t1 - t0);
  const { y, svg: axis } = yAxis(niceTicks(vmax), fmt);
  // Labels as fine as the span needs: days, then hours and minutes, then seconds.
  const span = t1 - t0;
  const cut: [number, number] =
    span > 2 * 86_400_000 ? [5, 10] : span > 2 * 3_600_000 ? [5, 16] : span > 60_000 ? [11, 19] : [11, 23];
  const xTicks = Array.from({ length: 5 }, (_, i) => t0 + (span * i) / 4)
    .map((t, i) => {
      const text = new Date(t)
        .toISOString()
        .slice(...cut)
        .replace('T', ' ');
      const anchor = i === 0 ? 'start' : i === 4 ? 'end' : 'middle';
      return `<text class="tick" x="${f1(x(t))}" y="${H - M.b + 16}" text-anchor="${anchor}">${text}</text>`;
    })
    .join('');
  const marks = series
    .map((s, i) => {
      const colour = PALETTE[i % PALETTE.length];
      const dots = s.points
        .map(
          (p) =>
            `<circle class="mark" data-series="${esc(s.name)}" cx="${f1(x(p.t))}" cy="${f1(y(p.v))}" r="3" fill="${colour}" fill-opacity="0.55"><title>${esc(p.label)}</title></circle>`,
        )
        .join('');
      const line =
        s.line && s.line.length > 1
          ? `<polyline class="mark line" data-series="${esc(s.name)}" fill="none" stroke="${colour}" stroke-width="2" points="${s.line.map((p) => `${f1(x(p.t))},${f1(y(p.v))}`).join(' ')}"/>`
          : '';
      return `<g>${dots}${line}</g>`;
    })
    .join('');
  return frame(id, label, `${axis}${xTicks}${marks}${legend(series.map((s) => s.name))}`);
}

/** Stacked bars per day (blocks per day, tokens per day). `stacks[k][d]` is stack k's value on day d. */
export function dayBars(
  id: string,
  label: string,
  days: string[],
  stacks: Array<{ name: string; values: number[]; colour?: string }>,
  fmt: (v: number) => string,
  integer = false,
): string {
  const totals = days.map((_, d) => stacks.reduce((s, k) => s + (k.values[d] ?? 0), 0));
  if (!days.length || !totals.some((t) => t > 0)) return empty(id, label);
  const { y, svg: axis } = yAxis(niceTicks(Math.max(...totals), 5, integer), fmt);
  const band = (W - M.l - M.r) / days.length;
  // A few days must not make slabs: bars stay at most 36 px wide.
  const bw = Math.min(36, Math.max(1, band * 0.7));
  const every = Math.ceil(days.length / 10);
  let body = axis;
  days.forEach((day, d) => {
    const x = M.l + band * d + (band - bw) / 2;
    let base = 0;
    stacks.forEach((k, i) => {
      const v = k.values[d] ?? 0;
      if (v <= 0) return;
      const h = y(base) - y(base + v);
      body += `<rect class="mark" data-series="${esc(k.name)}" x="${f1(x)}" y="${f1(y(base + v))}" width="${f1(bw)}" height="${f1(Math.max(h, 0.5))}" fill="${k.colour ?? PALETTE[i % PALETTE.length]}"><title>${esc(`${day} ${k.name}: ${fmt(v)}`)}</title></rect>`;
      base += v;
    });
    if (d % every === 0)
      body += `<text class="tick" x="${f1(x + bw / 2)}" y="${H - M.b + 16}" text-anchor="middle">${day.slice(5)}</text>`;
  });
  const names = stacks.map((k) => k.name);
  let lx = M.l;
  body += names
    .map((n, i) => {
      const item = `<rect x="${lx}" y="${H - 14}" width="10" height="10" fill="${stacks[i]!.colour ?? PALETTE[i % PALETTE.length]}"/><text class="legend" x="${lx + 14}" y="${H - 5}">${esc(n)}</text>`;
      lx += 24 + n.length * 6.5;
      return item;
    })
    .join('');
  return frame(id, label, body);
}

/** Ranked horizontal bars (the validators that block most, the files they block on). */
export function rankBars(
  id: string,
  label: string,
  rows: Array<{ name: string; value: number; note?: string }>,
  colour = PALETTE[2]!,
): string {
  if (!rows.length) return empty(id, label);
  const rowH = 22;
  const h = M.t + rows.length * rowH + 8;
  const labelW = 300;
  const max = Math.max(...rows.map((r) => r.value));
  const span = W - labelW - M.r - 50;
  const body = rows
    .map((r, i) => {
      const y = M.t + i * rowH;
      const w = Math.max(2, (span * r.value) / max);
      const name = r.name.length > 46 ? `…${r.name.slice(-45)}` : r.name;
      return `<text class="label" x="${labelW - 8}" y="${y + 15}" text-anchor="end">${esc(name)}<title>${esc(r.name)}</title></text><rect class="mark" data-series="${esc(r.name)}" x="${labelW}" y="${y + 3}" width="${f1(w)}" height="${rowH - 7}" fill="${colour}"><title>${esc(`${r.name}: ${r.value}${r.note ? ` (${r.note})` : ''}`)}</title></rect><text class="tick" x="${f1(labelW + w + 6)}" y="${y + 15}">${r.value}</text>`;
    })
    .join('');
  return `<svg class="chart" data-chart="${esc(id)}" viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg"><title>${esc(label)}</title>${body}</svg>`;
}
