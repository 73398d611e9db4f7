/**
 * Carried findings: what an edit broke on an agent whose after-the-fact event cannot refuse (Cursor's `afterFileEdit`,
 * Copilot's postToolUse …). The edit already happened, so the blocking findings are kept here per session, keyed by
 * file and validator, until the file is edited so that the validator passes. The engine raises them at the session's
 * next blocking point (once) and at the main agent's Stop (every time, within the loop guard).
 *
 * Kept in `carried-findings.json` (its absence — one `stat` — is the common case and costs nothing more). Every
 * change is a read-modify-write under the session's `carried` lock: a finding lost to a race would be an edit that
 * slipped through. Bounded: the newest MAX_ENTRIES entries, MAX_VIOLATIONS violations each, long fields clipped.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Severity } from '../validator/types.ts';
import type { Violation } from '../judges/types.ts';
import type { RunError } from '../runner/types.ts';
import { withLock } from '../os/dir-lock.ts';
import { writeAtomic } from './store.ts';

const FILE = 'carried-findings.json';
export const MAX_ENTRIES = 50;
export const MAX_VIOLATIONS = 10;
const MAX_FIELD = 1000;

/** One validator's blocking result on one file, found after the edit was made. */
export interface CarriedFinding {
  /** The file, relative to the project (as validators name it). */
  file: string;
  /** Its absolute path (a file that no longer exists carries nothing). */
  path: string;
  /** The validator's id, name, severity and file, to report it as its own run. */
  validator: string;
  name: string;
  severity: Severity;
  validatorPath: string;
  /** `failed`: violations found; `error`: the validator could not judge the edit (fail closed). */
  status: 'failed' | 'error';
  summary: string;
  violations: Violation[];
  error?: RunError;
  /** The agent's event the edit was seen at (`afterFileEdit`), for the text. */
  via?: string;
  /** When it was found (ms). */
  ts: number;
  /** Already raised at a blocking point (raised there once; the Stop raises it until it is fixed). */
  delivered?: boolean;
}

export const carriedFile = (dir: string) => join(dir, FILE);

/** True when the session has a carried-findings record (one `stat`). */
export function hasCarried(dir: string): boolean {
  return existsSync(carriedFile(dir));
}

const clip = (s: string) => (s.length > MAX_FIELD ? `${s.slice(0, MAX_FIELD - 1)}…` : s);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function boundViolation(v: Violation): Violation {
  const out: Violation = { rule: clip(String(v.rule ?? '')) };
  for (const k of ['file', 'snippet', 'suggestion', 'message'] as const) {
    const s = str(v[k]);
    if (s !== undefined) out[k] = clip(s);
  }
  if (typeof v.line === 'number' && Number.isInteger(v.line) && v.line > 0) out.line = v.line;
  return out;
}

/** An entry within the bounds; `undefined` for anything that is not one (a hand-edited or torn record). */
function bound(e: Partial<CarriedFinding>): CarriedFinding | undefined {
  const file = str(e.file);
  const path = str(e.path);
  const validator = str(e.validator);
  if (!file || !path || !validator || (e.status !== 'failed' && e.status !== 'error')) return undefined;
  const violations = Array.isArray(e.violations)
    ? e.violations.filter((v) => v && typeof v === 'object').slice(0, MAX_VIOLATIONS)
    : [];
  return {
    file,
    path,
    validator,
    name: str(e.name) ?? validator,
    severity: e.severity === 'warn' || e.severity === 'info' ? e.severity : 'error',
    validatorPath: str(e.validatorPath) ?? '',
    status: e.status,
    summary: clip(str(e.summary) ?? ''),
    violations: violations.map(boundViolation),
    ...(e.error && typeof e.error === 'object'
      ? {
          error: {
            cause: clip(str(e.error.cause) ?? 'unknown error'),
            fix: clip(str(e.error.fix) ?? ''),
            ...(str(e.error.code) ? { code: e.error.code } : {}),
            ...(e.error.setup === true ? { setup: true } : {}),
          },
        }
      : {}),
    ...(str(e.via) ? { via: clip(e.via!) } : {}),
    ts: typeof e.ts === 'number' ? e.ts : 0,
    ...(e.delivered === true ? { delivered: true } : {}),
  };
}

/** The session's carried findings (empty when there are none or the record is unreadable). */
export function readCarried(dir: string): CarriedFinding[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(carriedFile(dir), 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((e) => (e && typeof e === 'object' ? (bound(e as Partial<CarriedFinding>) ?? []) : []));
}

function writeCarried(dir: string, entries: CarriedFinding[]): void {
  const kept = entries
    .map(bound)
    .filter((e): e is CarriedFinding => !!e)
    .slice(-MAX_ENTRIES);
  // None left: no file, so the session's next blocking point costs one `stat` again.
  if (!kept.length) rmSync(carriedFile(dir), { force: true });
  else writeAtomic(carriedFile(dir), JSON.stringify(kept));
}

/**
 * Changes the session's carried findings under its lock: `change` gets the current entries and returns the new ones
 * (oldest first; only the newest MAX_ENTRIES are kept). Returns what `change` returned.
 */
export async function updateCarried(
  dir: string,
  change: (entries: CarriedFinding[]) => CarriedFinding[],
): Promise<CarriedFinding[]> {
  return withLock(dir, 'carried', () => {
    const before = readCarried(dir);
    const after = change(before);
    if (after !== before) writeCarried(dir, after);
    return after;
  });
}
