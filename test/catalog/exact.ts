/**
 * The corpus's exact comparison: every labelled case must come out as labelled (a `flag` case flagged under its
 * labelled rule, a `pass` case not flagged), except the cases listed in test/fixtures/catalog/known-misses.ts, which
 * must still come out wrong. Shared by the in-process corpus test and the one through the compiled binary.
 */
import { knownMisses } from '../fixtures/catalog/known-misses.ts';
import { expect, test } from 'bun:test';
import { corpusOf, type LabelledEvent, loadValidate } from './corpus.ts';

export interface Outcome {
  id: string;
  expect: 'flag' | 'pass';
  /** The labelled rule of a `flag` case, when the corpus names one. */
  rule?: string;
  flagged: boolean;
  /** The rules of the violations the validator reported. */
  rules: string[];
}

/** Whether a case came out as labelled. */
export function asLabelled(o: Outcome): boolean {
  if (o.expect === 'pass') return !o.flagged;
  return o.flagged && (!o.rule || o.rules.includes(o.rule));
}

export interface Mismatches {
  /** Cases that came out other than labelled and are not known misses. */
  unexpected: string[];
  /** Known misses that now come out as labelled: remove them from known-misses.ts. */
  nowCorrect: string[];
  /** Known misses naming a case id the corpus does not have. */
  unknownIds: string[];
}

/** Compares a validator's outcomes with the labels and its known misses. */
export function mismatches(validator: string, outcomes: Outcome[]): Mismatches {
  const known = knownMisses[validator] ?? {};
  const describe = (o: Outcome) =>
    `${o.id}: labelled ${o.expect}${o.rule ? ` (${o.rule})` : ''}, got ${o.flagged ? `flag (${o.rules.join(',')})` : 'pass'}`;
  const ids = new Set(outcomes.map((o) => o.id));
  return {
    unexpected: outcomes.filter((o) => !asLabelled(o) && !(o.id in known)).map(describe),
    nowCorrect: outcomes.filter((o) => asLabelled(o) && o.id in known).map((o) => o.id),
    unknownIds: Object.keys(known).filter((id) => !ids.has(id)),
  };
}

/** Runs a validator's `validate` in-process on each labelled event. */
export async function outcomes(validator: string, events: LabelledEvent[]): Promise<Outcome[]> {
  const validate = await loadValidate(validator);
  const out: Outcome[] = [];
  for (const c of events) {
    const verdict = await validate(c.event);
    const rules = verdict.violations.map((v) => v.rule);
    out.push({ id: c.id, expect: c.expect, rule: c.rule, flagged: !verdict.passed, rules });
  }
  return out;
}

/** The exact corpus test of one validator (test/catalog/corpus-<name>.test.ts). */
export function exactCorpusTest(validator: string): void {
  test(`${validator}: every corpus case comes out as labelled, each positive under its rule, except the known misses`, async () => {
    const events = await corpusOf(validator);
    expect(mismatches(validator, await outcomes(validator, events))).toEqual({
      unexpected: [],
      nowCorrect: [],
      unknownIds: [],
    });
  });
}
