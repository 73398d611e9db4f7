/**
 * A published version's own test cases: how many case files its archive holds under `tests/` (counted by the
 * registry) and, for a script validator, the result of running them as its publisher's `avp publish` reported it.
 * The registry runs no uploaded code, so the result is the publisher's word, checked only against the archive.
 */
export interface VersionTests {
  /** Files under the archive's `tests/`, counted by the registry. */
  caseFiles: number;
  /** The publisher's run of the deterministic (script) cases; absent when none ran (an LLM validator, no cases). */
  cases?: number;
  failed?: number;
  /** Published with `--allow-failing-tests` while cases failed. */
  publishedWithFailing?: boolean;
  reportedBy: 'publisher';
}

/** A version's tests in one phrase: "34 cases, all pass", "no tests", "published with failing tests". */
export function testsLine(t: VersionTests | undefined): string {
  if (!t || t.caseFiles === 0) return 'no tests';
  if (t.cases === undefined) return `${t.caseFiles} cases, not run at publish (LLM cases need a judge: avp test)`;
  if (t.failed) return `published with failing tests (${t.failed} of ${t.cases} cases fail; the publisher's report)`;
  return `${t.cases} cases, all pass (the publisher's report)`;
}

/** Reads a `tests` field of an answer, loosely: anything malformed is no information. */
export function readVersionTests(v: unknown): VersionTests | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  const n = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : undefined);
  const caseFiles = n(o.caseFiles);
  if (caseFiles === undefined) return undefined;
  const out: VersionTests = { caseFiles, reportedBy: 'publisher' };
  if (n(o.cases) !== undefined) out.cases = n(o.cases);
  if (n(o.failed) !== undefined) out.failed = n(o.failed);
  if (o.publishedWithFailing === true) out.publishedWithFailing = true;
  return out;
}
