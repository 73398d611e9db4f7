/**
 * Findings already shown to the agent on a Stop round, so the next round does not re-send them word for word: a
 * finding is "the same" when its validator, rule, place, text and the content of its file (the whole turn's files
 * when it names none) are unchanged. Such a finding is listed briefly as "still failing" (runner/report-text.ts); the
 * Stop loop guard counts rounds as before. Kept per session in `shown-findings.json` (temp + rename; last writer
 * wins, the cost of a lost write being one full re-send), bounded to the newest MAX_KEYS.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEvent } from '../protocol/event.ts';
import { type ShownViolation, violationGroups } from '../runner/report-text.ts';
import type { ValidatorRun } from '../runner/types.ts';
import { ensureSessionDir, sessionDir, writeAtomic } from './store.ts';

const FILE = 'shown-findings.json';
const MAX_KEYS = 2000;

/** The finding's identity with the content it was found in; `undefined` when that content is not known. */
export function findingKey(v: ShownViolation, event: HookEvent): string | undefined {
  const files = v.file
    ? event.files.filter((f) => f.relPath === v.file || f.path === v.file || f.path.endsWith(`/${v.file}`))
    : event.files;
  if (!files.length || files.some((f) => typeof f.after !== 'string' && f.after !== null)) return undefined;
  const h = new Bun.CryptoHasher('sha256');
  for (const x of [v.validator, v.rule, v.file, v.line, v.message, v.snippet, v.suggestion])
    h.update(`${String(x ?? '')}\0`);
  for (const f of files) h.update(`${f.relPath}\0${f.after === null ? '\u0000deleted' : f.after}\0`);
  return h.digest('hex').slice(0, 32);
}

/** The keys shown on earlier Stop rounds of this session (empty without a session or state). */
export function shownBefore(event: HookEvent): Set<string> {
  if (!event.sessionId || event.stateless) return new Set();
  try {
    const keys = JSON.parse(readFileSync(join(sessionDir(event.projectRoot, event.sessionId), FILE), 'utf8'));
    return new Set(Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Adds `keys` (shown in this answer) to the session's record; returns the error instead of throwing. */
export function rememberShown(event: HookEvent, before: Set<string>, keys: string[]): Error | undefined {
  if (!event.sessionId || event.stateless || !keys.length) return undefined;
  try {
    const all = [...before]
      .filter((k) => !keys.includes(k))
      .concat(keys)
      .slice(-MAX_KEYS);
    writeAtomic(join(ensureSessionDir(event.projectRoot, event.sessionId), FILE), JSON.stringify(all));
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

/** For one blocked Stop: which findings were shown before, and recording the ones this answer shows. */
export function stopRepeats(event: HookEvent): {
  repeated: (v: ShownViolation) => boolean;
  remember: (runs: ValidatorRun[]) => Error | undefined;
} {
  const before = shownBefore(event);
  return {
    repeated: (v) => {
      const key = findingKey(v, event);
      return key !== undefined && before.has(key);
    },
    remember: (runs) =>
      rememberShown(
        event,
        before,
        violationGroups(runs)
          .flat()
          .flatMap((v) => findingKey(v, event) ?? []),
      ),
  };
}
