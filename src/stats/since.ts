/** `--since`: a duration back from now (`90m`, `24h`, `7d`, `2w`) or a date (`2025-06-01`, an ISO time). */
import { AvpError } from '../errors.ts';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** The start of the period in ms since the epoch; throws a usage error naming the accepted forms. */
export function parseSince(text: string, now = Date.now()): number {
  const s = text.trim();
  const rel = /^(\d{1,6})\s*([mhdw])$/i.exec(s);
  if (rel) return now - Number(rel[1]) * UNITS[rel[2]!.toLowerCase()]!;
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s)) {
    // A bare date is midnight UTC: the run logs' days are UTC days.
    const t = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
    if (Number.isFinite(t)) return t;
  }
  throw new AvpError('usage', `--since ${JSON.stringify(text)} is neither a duration nor a date`, {
    fix: 'give a duration back from now (90m, 24h, 7d, 2w) or a date (2025-06-01, 2025-06-01T12:00:00Z)',
  });
}
