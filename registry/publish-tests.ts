/**
 * The `tests` part of an upload: the publisher's run of the package's script cases. The registry runs no uploaded
 * code, so it cannot recompute the result; it stores the report labelled as the publisher's, after checking what it
 * can: the shape, the case count against the case files the archive really holds, and that failing cases were
 * published on purpose (`--allow-failing-tests`).
 */
import { badRequest } from './errors.ts';
import type { VersionTests } from '../src/registry-client/version-tests.ts';

const count = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 100_000;

export function publisherTests(part: unknown, caseFiles: number): VersionTests {
  const base: VersionTests = { caseFiles, reportedBy: 'publisher' };
  if (part === null || part === undefined) return base;
  if (typeof part !== 'string' || part.length > 4096)
    throw badRequest('the `tests` part must be a small JSON text', 'invalid_tests');
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(part);
  } catch {
    throw badRequest('the `tests` part is not JSON', 'invalid_tests');
  }
  if (!r || typeof r !== 'object' || !count(r.cases) || !count(r.failed) || typeof r.publishedWithFailing !== 'boolean')
    throw badRequest('the `tests` part must be {cases, failed, publishedWithFailing}', 'invalid_tests');
  const cases = r.cases as number;
  const failed = r.failed as number;
  if (failed > cases) throw badRequest('the `tests` part reports more failures than cases', 'invalid_tests');
  if (cases !== caseFiles)
    throw badRequest(
      `the \`tests\` part reports ${cases} cases; the archive holds ${caseFiles} files under tests/`,
      'invalid_tests',
    );
  if (failed > 0 !== r.publishedWithFailing)
    throw badRequest(
      'failing cases are published only with publishedWithFailing (--allow-failing-tests)',
      'invalid_tests',
    );
  return { ...base, cases, failed, ...(failed ? { publishedWithFailing: true } : {}) };
}
