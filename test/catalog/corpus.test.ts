/**
 * Precision first: every deterministic catalog validator is scored on its labelled corpus
 * (test/fixtures/catalog/*.cases.ts). Exact: every case comes out as labelled (a near miss unflagged, a positive
 * flagged under its labelled rule) unless test/fixtures/catalog/known-misses.ts lists it — and a listed case must
 * still come out wrong, so a fix is noticed and the list shrinks. One file per validator runs its cases
 * (test/catalog/corpus-<name>.test.ts, each the fast test a mutation run of that validator's scripts starts with);
 * this one checks the corpus itself.
 */
import { expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { corpus } from './corpus.ts';

const labelled = await corpus();

test('the corpus holds at least 200 labelled cases, positives and near misses for each validator', () => {
  const total = Object.values(labelled).reduce((n, cs) => n + cs.length, 0);
  expect(total).toBeGreaterThanOrEqual(200);
  for (const [name, cs] of Object.entries(labelled)) {
    expect({ name, positives: cs.filter((c) => c.expect === 'flag').length >= 15 }).toEqual({ name, positives: true });
    expect({ name, negatives: cs.filter((c) => c.expect === 'pass').length >= 25 }).toEqual({ name, negatives: true });
    const ids = cs.map((c) => c.id);
    expect(ids.length).toBe(new Set(ids).size);
  }
});

test('each validator with a corpus has its own exact corpus test', () => {
  const files = readdirSync(import.meta.dir).filter((f) => /^corpus-.+\.test\.ts$/.test(f));
  expect(files.sort()).toEqual(
    Object.keys(labelled)
      .map((n) => `corpus-${n}.test.ts`)
      .sort(),
  );
});
