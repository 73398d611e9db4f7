/**
 * A script's plain pass, read without the verdict schemas. `{"passed": true}` with nothing beside it but a `summary`
 * and a `reason` (each a string, null or absent) and `violations` empty (or null, or absent) is what every catalog
 * script answers when nothing is wrong, and what `readVerdict` (verdict-schema.ts) reads as a pass whose summary is
 * the reason, else the summary, else "passed". Loading those schemas — valibot builds them when their module loads —
 * cost ~0.3–0.5 ms of every hook call that runs a script (CPU marks in a compiled avp, docs/hook-mode.md); a value
 * with anything else in it (a failure, a decision, a status, an unknown key) is not read here and goes to
 * `readVerdict`, the one reader of every other form. test/unit/judges/verdict-pass.test.ts holds both readers to the
 * same verdict on every value this one accepts.
 */
import type { Verdict } from './types.ts';

/** The verdict of a plain pass; undefined for any other value. */
export function plainPass(value: unknown): Verdict | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  if (raw.passed !== true) return undefined;
  const keys = Object.keys(raw);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const field = raw[key];
    if (key === 'passed') continue;
    if (key === 'summary' || key === 'reason') {
      if (field !== undefined && field !== null && typeof field !== 'string') return undefined;
    } else if (key === 'violations') {
      if (field !== undefined && field !== null && !(Array.isArray(field) && field.length === 0)) return undefined;
    } else return undefined;
  }
  const said = (raw.reason as string | null | undefined) || (raw.summary as string | null | undefined);
  return { passed: true, violations: [], summary: said || 'passed' };
}
