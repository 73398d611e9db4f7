/**
 * `avp publish` runs the package's deterministic cases (a script validator's `tests/`) and refuses a package whose
 * cases fail, unless `--allow-failing-tests`, which the registry records. An LLM validator's cases need a judge: they
 * are counted, not run.
 */
import { AvpError } from '../errors.ts';
import { testsLine } from '../registry-client/version-tests.ts';
import { runTests } from './targets.ts';

export interface PublishTests {
  /** What the registry is told; absent when nothing ran. */
  report?: { cases: number; failed: number; publishedWithFailing: boolean };
  line: string;
}

export async function publishTests(
  dir: string,
  files: string[],
  allowFailing: boolean,
  env: NodeJS.ProcessEnv,
): Promise<PublishTests | undefined> {
  const caseFiles = files.filter((f) => f.startsWith('tests/')).length;
  if (!caseFiles) return { line: testsLine(undefined) };
  const [r] = await runTests({
    projectRoot: dir,
    cwd: dir,
    env,
    targets: [dir],
    repeat: 1,
    cache: false,
    scriptOnly: true,
  });
  if (!r || r.notRun) return { line: testsLine({ caseFiles, reportedBy: 'publisher' }) };
  const bad = r.cases.filter((c) => !c.passed);
  if (bad.length && !allowFailing) {
    throw new AvpError(
      'publish-tests-failed',
      `${bad.length} of ${r.cases.length} cases in ${dir}/tests fail:\n${bad
        .slice(0, 10)
        .map(
          (c) =>
            `  ${c.case}: ${c.problem ?? [c.missed.length ? `missed ${c.missed.join(', ')}` : '', c.falseAlarms.length ? `false alarm ${c.falseAlarms.join(', ')}` : ''].filter(Boolean).join('; ')}`,
        )
        .join('\n')}`,
      { fix: `fix the validator or its cases (avp test ${dir}), or publish anyway with --allow-failing-tests` },
    );
  }
  const report = { cases: r.cases.length, failed: bad.length, publishedWithFailing: bad.length > 0 };
  return { report, line: testsLine({ caseFiles, ...report, reportedBy: 'publisher' }) };
}
