/**
 * Whose rules judge a pull request: `avp check --diff base...head` runs on the base's config and validators, so a
 * change (an agent's, often) that switches its own check off — `"disabled": true`, a deleted validator, a
 * `disabledValidators` entry, a lowered severity, a gutted script — is still checked by what was merged. `--rules
 * head` obeys the change's rules; a base without avp uses the change's; every format says when the rules changed; the
 * materialized rules folder never outlives the check, not even a SIGTERM.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AVP_BIN, tempDir } from '../support/run-avp.ts';
import { check, gitRepo, junitErrors, lineFinder, sarifErrors, scriptValidator, sh } from './ci-support.ts';

const SECRET = 'const k = "sk-live-pr42";\n';

/**
 * `main` with the `no-secrets` validator and a config (`base`, default `{}`); a `feature` branch whose commit holds a
 * secret plus what `pr` does to the rules. The clone stays on `feature`.
 */
function pullRequest(pr: (root: string) => void, opts: { base?: object; prefix?: string } = {}): string {
  const root = gitRepo({ 'README.md': 'demo\n' });
  const project = join(root, opts.prefix ?? '');
  mkdirSync(join(project, '.avp/validators'), { recursive: true });
  scriptValidator(project, 'no-secrets', {}, lineFinder('sk-live-'));
  writeFileSync(join(project, 'avp.config.json'), JSON.stringify(opts.base ?? {}));
  writeFileSync(join(project, 'app.ts'), 'export const a = 1;\n');
  sh(root, 'git add -A && git commit -qm avp && git checkout -q -b feature');
  writeFileSync(join(project, 'app.ts'), `export const a = 1;\n${SECRET}`);
  pr(project);
  sh(root, 'git add -A && git commit -qm pr');
  return project;
}

const config = (root: string, c: object) => writeFileSync(join(root, 'avp.config.json'), JSON.stringify(c));

/** A fresh HOME whose `$AVP_HOME` the test can look into afterwards. */
function home(): { HOME: string; dir: string } {
  const HOME = tempDir('avp-rules-home-');
  return { HOME, dir: join(HOME, '.avp', 'cache', 'check-rules') };
}

const leftovers = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe("avp check --diff: the base's rules judge the change", () => {
  const attacks: Array<[string, (root: string) => void, string]> = [
    ['sets "disabled": true', (r) => config(r, { disabled: true }), 'avp.config.json'],
    ['deletes the validator', (r) => rmSync(join(r, '.avp/validators/no-secrets'), { recursive: true }), 'check.ts'],
    ['adds a disabledValidators entry', (r) => config(r, { disabledValidators: ['no-secrets'] }), 'avp.config.json'],
    ['lowers the severity in the config', (r) => config(r, { severity: { 'no-secrets': 'info' } }), 'avp.config.json'],
    [
      'guts the validator script',
      (r) => scriptValidator(r, 'no-secrets', { severity: 'info' }, 'console.log(\'{"passed":true}\');\n'),
      '.avp/validators/no-secrets/scripts/check.ts',
    ],
  ];
  for (const [what, pr, file] of attacks) {
    test(`a pull request that ${what} is still blocked; the notice names the rules it edits`, async () => {
      const root = pullRequest(pr);
      const h = home();
      const r = await check(root, ['--diff', 'main...HEAD'], { HOME: h.HOME });
      expect(r.stderr).not.toContain('disabled');
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('app.ts:2: found sk-live-');
      expect(r.stdout).toMatch(/^! this change edits avp's rules: .*— judged by the base's rules \([0-9a-f]{7}\)/m);
      expect(r.stdout).toContain(file);
      expect(r.stdout).toContain('run with --rules head to try them');
      expect(leftovers(h.dir)).toEqual([]);
    });
  }

  test('--rules head obeys the change: disabled, deleted, disabledValidators', async () => {
    const disabled = pullRequest((r) => config(r, { disabled: true }));
    const off = await check(disabled, ['--diff', 'main...HEAD', '--rules', 'head']);
    expect(off.code).toBe(0);
    expect(off.stderr).toContain('avp is disabled ("disabled": true in');
    expect(off.stderr).toContain('avp.config.json');
    const deleted = pullRequest((r) => rmSync(join(r, '.avp/validators/no-secrets'), { recursive: true }));
    const gone = await check(deleted, ['--diff', 'main...HEAD', '--rules', 'head', '--json']);
    expect(gone.code).toBe(0);
    const report = JSON.parse(gone.stdout);
    expect(report.outcome).toBe('PASSED');
    expect(report.rules.from).toBe('head');
    expect(report.rules.notice).toContain("judged by the change's own rules (--rules head)");
    const listed = pullRequest((r) => config(r, { disabledValidators: ['no-secrets'] }));
    expect((await check(listed, ['--diff', 'main..feature', '--rules', 'head'])).code).toBe(0);
  });

  test("--rules head reads the head revision's rules, not the working tree's", async () => {
    const root = pullRequest((r) => config(r, { disabled: true }));
    // Checked out on main (whose rules run): `main...feature --rules head` must still obey feature's config.
    sh(root, 'git checkout -q main');
    expect((await check(root, ['--diff', 'main...feature', '--rules', 'head'])).code).toBe(0);
    expect((await check(root, ['--diff', 'main...feature'])).code).toBe(1);
  });

  test('a change to the rules alone passes: the notice warns, it never fails the check', async () => {
    const root = gitRepo({ 'README.md': 'demo\n' });
    scriptValidator(root, 'no-secrets', {}, lineFinder('sk-live-'));
    sh(root, 'git add -A && git commit -qm avp && git checkout -q -b feature');
    config(root, { severity: { 'no-secrets': 'warn' } });
    sh(root, 'git add -A && git commit -qm rules');
    const r = await check(root, ['--diff', 'main...HEAD', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.outcome).toBe('PASSED');
    expect(report.rules).toMatchObject({ from: 'base', changed: ['avp.config.json'] });
  });

  test("a base without avp (the change introduces it): the change's rules judge it, and the notice says so", async () => {
    const root = gitRepo({ 'README.md': 'demo\n' });
    rmSync(join(root, '.avp'), { recursive: true });
    sh(root, 'git add -A && git commit -qm "no avp" && git checkout -q -b feature');
    scriptValidator(root, 'no-secrets', {}, lineFinder('sk-live-'));
    writeFileSync(join(root, 'app.ts'), SECRET);
    sh(root, 'git add -A && git commit -qm "add avp"');
    const r = await check(root, ['--diff', 'main...HEAD']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('app.ts:1: found sk-live-');
    expect(r.stdout).toMatch(/^! this change adds avp's rules: .*\.avp\/validators\/no-secrets\/VALIDATOR\.md/m);
    expect(r.stdout).toContain("has none, so they are judged by the change's own rules");
  });

  test('a monorepo project: the base rules come from the project folder inside the repository', async () => {
    const root = pullRequest((r) => config(r, { disabled: true }), { prefix: 'packages/app' });
    const r = await check(root, ['--diff', 'main...HEAD', '--format', 'github']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error file=packages\/app\/app.ts,line=2,title=avp no-secrets/m);
    expect(r.stdout).toMatch(/^::warning file=packages\/app\/avp.config.json,title=avp rules changed::/m);
  });

  test('the managed policy still applies on top of the base rules', async () => {
    // main switched no-secrets off, but the machine's policy requires it; the PR deletes it as well.
    const root = pullRequest((r) => rmSync(join(r, '.avp/validators/no-secrets'), { recursive: true }), {
      base: { disabledValidators: ['no-secrets'] },
    });
    const managed = join(tempDir('avp-managed-'), 'managed.json');
    writeFileSync(managed, JSON.stringify({ requiredValidators: ['no-secrets'] }));
    const r = await check(root, ['--diff', 'main...HEAD'], { AVP_MANAGED_CONFIG: managed });
    expect(r.code).toBe(1);
    // The base's validator ran (despite the base's disabledValidators): a finding, not "required but missing".
    expect(r.stdout).toContain('app.ts:2: found sk-live-');
    expect((await check(root, ['--diff', 'main...HEAD'])).code).toBe(0);
  });

  test('validators kept out of git (restored by avp install --frozen): the installed ones run, the base lockfile says which', async () => {
    const lock = (names: string[]) =>
      JSON.stringify({
        version: '1.0.0',
        lockfileVersion: 1,
        packages: Object.fromEntries(names.map((n) => [n, { version: '1.0.0', resolved: 'catalog:x', integrity: '' }])),
      });
    const root = gitRepo({ 'README.md': 'demo\n', '.gitignore': '.avp/validators/\n' });
    writeFileSync(join(root, '.avp/avp-lock.json'), lock(['no-secrets']));
    sh(root, 'git add -A && git commit -qm lock && git checkout -q -b feature');
    writeFileSync(join(root, 'app.ts'), SECRET);
    sh(root, 'git add -A && git commit -qm pr');
    scriptValidator(root, 'no-secrets', {}, lineFinder('sk-live-'));
    const installed = await check(root, ['--diff', 'main...HEAD']);
    expect(installed.code).toBe(1);
    expect(installed.stdout).toContain('app.ts:1: found sk-live-');
    // The PR drops it from the lockfile, so the CI's install --frozen no longer restores it: it fails closed.
    writeFileSync(join(root, '.avp/avp-lock.json'), lock([]));
    sh(root, 'git commit -qam "drop no-secrets"');
    rmSync(join(root, '.avp/validators/no-secrets'), { recursive: true });
    const dropped = await check(root, ['--diff', 'main...HEAD']);
    expect(dropped.code).toBe(1);
    expect(dropped.stdout).toContain('"no-secrets" is in the lockfile of the rules');
    expect(dropped.stdout).toContain('avp install --frozen');
  });

  test('bad --rules values and --rules base without a base are usage errors (exit 2), before any judge', async () => {
    const root = pullRequest(() => {});
    const bad = await check(root, ['--diff', 'main...HEAD', '--rules', 'mine']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--rules mine is not base or head');
    const files = await check(root, ['app.ts', '--rules', 'base']);
    expect(files.code).toBe(2);
    expect(files.stderr).toContain('--rules base needs a base revision');
  });
});

describe('the rules notice in every format', () => {
  test("json, sarif (schema-valid, its own rule id), github, junit (schema-valid); validator paths stay the project's", async () => {
    const root = pullRequest((r) => config(r, { disabled: true }));
    const out = tempDir('avp-rules-out-');
    const f = (n: string) => join(out, n);
    const r = await check(root, [
      '--diff',
      'main...HEAD',
      '--format',
      `json,sarif=${f('a.sarif')},github=${f('gh.txt')},junit=${f('j.xml')},text=${f('t.txt')}`,
    ]);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.rules).toMatchObject({ from: 'base', changed: ['avp.config.json'] });
    expect(json.rules.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(json.rules.notice).toContain("this change edits avp's rules: avp.config.json");
    const sarifText = await Bun.file(f('a.sarif')).text();
    expect(await sarifErrors(sarifText)).toEqual([]);
    const run = JSON.parse(sarifText).runs[0];
    const notice = run.results.find((x: any) => x.ruleId === 'avp:rules-changed');
    expect(notice.level).toBe('warning');
    expect(notice.locations[0].physicalLocation.artifactLocation.uri).toBe('avp.config.json');
    expect(run.tool.driver.rules[notice.ruleIndex].id).toBe('avp:rules-changed');
    expect(run.results.some((x: any) => x.ruleId === 'no-secrets' && x.level === 'error')).toBe(true);
    // The validator ran from a temporary copy of the base; the report names its place in the project.
    const rule = run.tool.driver.rules.find((x: any) => x.id === 'no-secrets');
    expect(rule.properties.validatorPath).toBe('.avp/validators/no-secrets/VALIDATOR.md');
    expect(run.invocations[0].properties.rules.from).toBe('base');
    const gh = await Bun.file(f('gh.txt')).text();
    expect(gh).toMatch(/^::warning file=avp.config.json,title=avp rules changed::this change edits avp's rules/m);
    const xml = await Bun.file(f('j.xml')).text();
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toMatch(/<testsuite name="avp rules"[^>]* failures="0" errors="0"/);
    expect(xml).toContain('warning: this change edits avp&apos;s rules: avp.config.json');
    expect(await Bun.file(f('t.txt')).text()).toContain("! this change edits avp's rules: avp.config.json");
  });

  test('a validator broken in the base fails closed even when the change repairs it, named at its project path', async () => {
    const root = gitRepo({ 'README.md': 'demo\n' });
    writeFileSync(join(root, '.avp/validators/broken.md'), '---\nname: broken\ntrigger: [\n---\nbody\n');
    sh(root, 'git add -A && git commit -qm broken && git checkout -q -b feature');
    rmSync(join(root, '.avp/validators/broken.md'));
    scriptValidator(root, 'broken', {}, lineFinder('never-matches'));
    writeFileSync(join(root, 'app.ts'), 'x\n');
    sh(root, 'git add -A && git commit -qm pr');
    const h = home();
    const r = await check(root, ['--diff', 'main...HEAD', '--format', 'sarif'], { HOME: h.HOME });
    expect(r.code).toBe(1);
    const inv = JSON.parse(r.stdout).runs[0].invocations[0];
    expect(inv.toolExecutionNotifications[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      '.avp/validators/broken.md',
    );
    expect(inv.toolExecutionNotifications[0].message.text).toContain(`cannot load ${root}/.avp/validators/broken.md`);
    expect(r.stdout).not.toContain('check-rules');
    expect(leftovers(h.dir)).toEqual([]);
  });
});

describe('the rules folder never outlives the check', () => {
  test('SIGTERM while a base validator runs: the folder is removed; a killed run is swept by the next', async () => {
    const marker = join(tempDir('avp-rules-marker-'), 'started');
    const root = gitRepo({ 'README.md': 'demo\n' });
    scriptValidator(
      root,
      'slow',
      {},
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, String(process.pid));\nawait Bun.sleep(30_000);\n`,
    );
    sh(root, 'git add -A && git commit -qm slow && git checkout -q -b feature');
    writeFileSync(join(root, 'app.ts'), 'x\n');
    sh(root, 'git add -A && git commit -qm pr');
    const h = home();
    const run = async (signal: NodeJS.Signals) => {
      rmSync(marker, { force: true });
      const p = Bun.spawn([AVP_BIN, 'check', '--diff', 'main...HEAD'], {
        cwd: root,
        env: { PATH: process.env.PATH!, HOME: h.HOME, AVP_HOME: join(h.HOME, '.avp'), AVP_SCRIPT_PROCESS: '1' },
        stdout: 'pipe',
        stderr: 'pipe',
      });
      for (let i = 0; i < 600 && !existsSync(marker); i++) await Bun.sleep(100);
      expect(existsSync(marker)).toBe(true);
      expect(leftovers(h.dir)).toHaveLength(1);
      p.kill(signal);
      return p.exited;
    };
    expect(await run('SIGTERM')).toBe(143);
    expect(leftovers(h.dir)).toEqual([]);
    // SIGKILL leaves it; the next check of any project sweeps folders of processes that are gone.
    await run('SIGKILL');
    expect(leftovers(h.dir)).toHaveLength(1);
    // A SIGKILLed avp cannot stop its validator: this test does, so no process outlives it.
    try {
      process.kill(Number(readFileSync(marker, 'utf8')), 'SIGKILL');
    } catch {
      // already gone
    }
    const clean = gitRepo({ 'README.md': 'demo\n' });
    scriptValidator(clean, 'ok', {}, lineFinder('never-matches'));
    sh(clean, 'git add -A && git commit -qm ok && git commit -q --allow-empty -m next');
    expect((await check(clean, ['--diff', 'HEAD~1...HEAD'], { HOME: h.HOME })).code).toBe(0);
    expect(leftovers(h.dir)).toEqual([]);
  }, 120_000);
});
