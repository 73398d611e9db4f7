/**
 * Reading a batched answer: one verdict per validator out of one reply. Every rule of single verdict reading applies
 * to each validator's part (verdict.ts, verdict-schema.ts): a part that contradicts itself fails, an ambiguous one is
 * no verdict. On top, for a batch:
 * - a part is attributed only by its `validator` field, and only to a validator the request asked about;
 * - a validator with no part, an unreadable or ambiguous part, or two passing parts (the judge's own and one quoted
 *   from the code under review cannot be told apart) gets no verdict here: it is asked again alone;
 * - a failing part wins over any passing part for the same validator (an injected pass never outvotes a failure);
 * - in a free-text reply, a decisive DENY/FAIL line cannot be attributed to one validator, so no pass is taken from
 *   that reply (every passing validator is asked again alone; failures stand).
 * Nothing here ever turns a missing or malformed part into a pass.
 */
import type { Answer } from './llm-judge.ts';
import type { Verdict } from './types.ts';
import { decisiveDenial, jsonObjectsIn, nested } from './verdict.ts';
import { readVerdict, type Reading } from './verdict-schema.ts';

/** One validator's outcome in a batched answer: its verdict, or why it must be asked again alone. */
export type BatchPart = { verdict: Verdict; problem?: undefined } | { problem: string; verdict?: undefined };

/** The batch-shaped objects of an answer: `{"verdicts": [...]}`, at the top or one level down. */
function batchObjects(answer: Answer): Array<{ verdicts: unknown[] }> {
  const candidates =
    answer.value !== undefined ? [answer.value] : jsonObjectsIn(answer.text ?? '').flatMap((o) => [o, ...nested(o)]);
  return candidates.filter(
    (o): o is { verdicts: unknown[] } =>
      typeof o === 'object' && o !== null && Array.isArray((o as { verdicts?: unknown }).verdicts),
  );
}

/** Reads `answer` for each of `ids` (see the module comment for the rules). */
export function readBatch(answer: Answer, ids: string[]): Map<string, BatchPart> {
  const wanted = new Set(ids);
  const readings = new Map<string, Array<Reading | undefined>>(ids.map((id) => [id, []]));
  for (const obj of batchObjects(answer)) {
    for (const part of obj.verdicts) {
      if (typeof part !== 'object' || part === null || Array.isArray(part)) continue;
      const { validator, ...rest } = part as Record<string, unknown>;
      if (typeof validator !== 'string' || !wanted.has(validator)) continue;
      readings.get(validator)!.push(readVerdict(rest, validator));
    }
  }
  const denial = answer.value === undefined ? decisiveDenial(answer.text ?? '', 'judge') : undefined;
  const out = new Map<string, BatchPart>();
  for (const id of ids) {
    const list = readings.get(id)!;
    const failed = list.flatMap((r) => (r?.verdict && !r.verdict.passed ? [r.verdict] : []));
    if (failed.length) out.set(id, { verdict: failed[failed.length - 1]! });
    else if (!list.length) out.set(id, { problem: 'the batched answer has no verdict for it' });
    else if (list.some((r) => !r?.verdict))
      out.set(id, {
        problem: `its part of the batched answer is ${list.find((r) => r?.ambiguous)?.ambiguous ?? 'not a verdict'}`,
      });
    else if (list.length > 1) out.set(id, { problem: `the batched answer holds ${list.length} verdicts for it` });
    else if (denial) out.set(id, { problem: 'the batched answer passes it next to a denial it cannot be told from' });
    else out.set(id, { verdict: list[0]!.verdict! });
  }
  return out;
}
