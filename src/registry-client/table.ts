import { cleanText } from './http.ts';

/** A plain text table (columns padded, the last one cut to the terminal width); registry text is cleaned first. */
export function formatTable(head: string[], raw: string[][]): string {
  const rows = raw.map((r) => r.map((c) => cleanText(String(c ?? ''))));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const width = process.stdout.isTTY ? process.stdout.columns || 120 : Number.POSITIVE_INFINITY;
  const line = (cells: string[]) => {
    const text = cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
    return text.length > width ? `${text.slice(0, width - 1)}…` : text;
  };
  return `${[line(head), ...rows.map(line)].join('\n')}\n`;
}
