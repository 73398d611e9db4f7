/**
 * The GitHub workflows, read as GitHub reads them (YAML, Bun's parser): every job runs somewhere and needs only jobs
 * that exist, every script, test file and local action a step names exists, the Windows job that must pass does
 * not carry continue-on-error and runs what it promises, and the release bakes and stamps one release URL before it
 * publishes anything.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const DIR = join(ROOT, '.github/workflows');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  needs?: string | string[];
  'continue-on-error'?: unknown;
  steps: Step[];
}
interface Workflow {
  name: string;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflows: Record<string, Workflow> = Object.fromEntries(
  readdirSync(DIR)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => [f, Bun.YAML.parse(readFileSync(join(DIR, f), 'utf8')) as Workflow]),
);

/** Repository files a shell line names: scripts, test files, build.ts and the installers. */
function namedFiles(run: string): string[] {
  const found = run.match(/(?<![\w./-])(?:scripts\/[\w./-]+|test\/[\w./-]+\.ts|build\.ts|install\.(?:sh|ps1))/g) ?? [];
  return [...new Set(found.map((f) => f.replace(/[.,;:]+$/, '')))];
}

describe('the GitHub workflows', () => {
  test('ci.yml and release.yml are there and parse', () => {
    expect(Object.keys(workflows).sort()).toEqual(['ci.yml', 'release.yml']);
  });

  for (const [file, wf] of Object.entries(workflows)) {
    test(`${file}: every job runs somewhere and needs only jobs that exist`, () => {
      expect(Object.keys(wf.jobs).length).toBeGreaterThan(0);
      for (const [name, job] of Object.entries(wf.jobs)) {
        expect({ name, runsOn: typeof job['runs-on'] }).toEqual({ name, runsOn: 'string' });
        expect({ name, steps: Array.isArray(job.steps) && job.steps.length > 0 }).toEqual({ name, steps: true });
        for (const need of [job.needs ?? []].flat())
          expect({ name, need, exists: need in wf.jobs }).toMatchObject({ exists: true });
      }
    });

    test(`${file}: every script, test file and local action its steps name exists`, () => {
      const missing: string[] = [];
      let named = 0;
      for (const [name, job] of Object.entries(wf.jobs)) {
        for (const step of job.steps) {
          if (step.uses?.startsWith('./') && !existsSync(join(ROOT, step.uses))) missing.push(`${name}: ${step.uses}`);
          for (const f of namedFiles(step.run ?? '')) {
            named++;
            if (!existsSync(join(ROOT, f))) missing.push(`${name}: ${f}`);
          }
        }
      }
      expect(missing).toEqual([]);
      expect(named).toBeGreaterThan(0);
    });
  }

  test('the extraction finds file names in shell lines (a broken one would pass everything)', () => {
    expect(namedFiles('sh scripts/release/stamp-installers.sh "$U" release/install.sh x')).toEqual([
      'scripts/release/stamp-installers.sh',
    ]);
    expect(namedFiles('bun test test/unit/a.test.ts\ntest/integration/b.test.ts; bun run build.ts')).toEqual([
      'test/unit/a.test.ts',
      'test/integration/b.test.ts',
      'build.ts',
    ]);
  });

  test('ci.yml: the Windows job may not fail, builds avp.exe, runs it and the tests that must pass on Windows', () => {
    const job = workflows['ci.yml']!.jobs.windows!;
    expect(job['runs-on']).toBe('windows-latest');
    expect(job['continue-on-error']).toBeUndefined();
    const runs = job.steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toContain('bun run build.ts');
    expect(runs).toContain('dist/avp.exe --version');
    const tests = namedFiles(runs).filter((f) => f.startsWith('test/'));
    expect(tests.sort()).toEqual([
      'test/integration/hook-binary.test.ts',
      'test/integration/install-ps1.test.ts',
      'test/unit/win32-paths.test.ts',
    ]);
    // Those files are what the job's name says: Windows paths, the compiled binary on a captured event, pwsh.
    expect(readFileSync(join(ROOT, 'test/unit/win32-paths.test.ts'), 'utf8')).toContain('win32');
    expect(readFileSync(join(ROOT, 'test/integration/hook-binary.test.ts'), 'utf8')).toContain(
      'fixtures/hook/claude-code',
    );
    expect(readFileSync(join(ROOT, 'test/integration/install-ps1.test.ts'), 'utf8')).toContain("Bun.which('pwsh')");
    // pwsh is required there: a skipped install.ps1 test would pass the job without running install.ps1.
    const testStep = job.steps.find((s) => s.run?.includes('install-ps1.test.ts'))!;
    expect(testStep.env?.AVP_REQUIRE_PWSH).toBe('1');
  });

  test('release.yml: one release URL, baked into the binaries and stamped into the installers before publishing', () => {
    const wf = workflows['release.yml']!;
    expect(wf.env?.AVP_RELEASE_URL).toBe('${{ github.server_url }}/${{ github.repository }}/releases/download');
    const build = wf.jobs.build!.steps.map((s) => s.run ?? '');
    expect(build.some((r) => r.includes('build.ts --all'))).toBe(true);
    expect(build.some((r) => r.includes('grep -qaF "$AVP_RELEASE_URL"'))).toBe(true);
    const publish = wf.jobs.publish!.steps.map((s) => s.run ?? '');
    const at = (text: string) => publish.findIndex((r) => r.includes(text));
    const assets = publish[at('stamp-installers.sh')]!;
    expect(assets.indexOf('cp dist/avp-* install.sh install.ps1 release/')).toBeLessThan(assets.indexOf('stamp'));
    expect(assets.indexOf('stamp-installers.sh')).toBeLessThan(assets.indexOf('sha256sum'));
    expect(at('stamp-installers.sh')).toBeLessThan(at('gh release create'));
  });
});
