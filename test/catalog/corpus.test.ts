/**
 * Precision first: every deterministic catalog validator is scored on its labelled corpus
 * (test/fixtures/catalog/*.cases.ts). No near miss may be flagged; at least 95 % of positives must be.
 */
import { describe, expect, test } from 'bun:test';
import { corpus, score } from './corpus.ts';

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

describe.each(Object.keys(labelled))('%s on its corpus', (name) => {
  test('no false positive on the near-miss set', async () => {
    const s = await score(name, labelled[name]!);
    expect(s.falseAlarms).toEqual([]);
  });
  test('recall ≥ 95 % on the positive set, each positive under its labelled rule', async () => {
    const s = await score(name, labelled[name]!);
    expect({ recall: s.recall >= 0.95, missed: s.missed }).toEqual({ recall: true, missed: s.missed });
    expect(s.wrongRule).toEqual([]);
  });
});
