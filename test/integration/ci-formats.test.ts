/**
 * `avp check --format sarif|github|junit` through the compiled binary: the SARIF validates against the published
 * SARIF 2.1.0 schema and the JUnit XML against the Ant JUnit schema, even when judges and files put hostile text in
 * them; GitHub annotations cannot be turned into other workflow commands; several formats come from one run.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, gitRepo, junitErrors, lineFinder, sarifErrors, scriptValidator } from './ci-support.ts';

/** A judge whose message carries a workflow command, XML breakers and characters XML 1.0 cannot hold. */
const HOSTILE = "\n::add-mask::hunter2\n::error::forged]]></failure><x a='1'>&amp;\u0001\u001b[31m\uffff\ud800";

/** A repository with a blocking, a warning, an info, a crashing and a hostile validator, and a change for each. */
function repo(): string {
  const root = gitRepo({ 'src/app.ts': 'export const a = 1;\n', 'weird name #1.ts': 'ok\n' });
  scriptValidator(
    root,
    'no-keys',
    { description: 'No API keys in source.\nRead them from the environment.' },
    lineFinder('sk-live-'),
  );
  scriptValidator(root, 'todo-warn', { severity: 'warn' }, lineFinder('TODO'));
  scriptValidator(root, 'fixme-info', { severity: 'info' }, lineFinder('FIXME'));
  scriptValidator(root, 'hostile', { severity: 'error' }, lineFinder('EVIL', HOSTILE));
  scriptValidator(root, 'crashes', { trigger: 'Stop' }, 'process.stdout.write("not json"); process.exit(3);\n');
  writeFileSync(join(root, 'src/app.ts'), 'export const a = 1;\nconst k = "sk-live-abc123"; // TODO FIXME\n');
  writeFileSync(join(root, 'weird name #1.ts'), 'ok\nEVIL \u0007 here\n');
  return root;
}

describe('avp check --format (compiled binary)', () => {
  test('sarif: valid SARIF 2.1.0; a rule per validator, a result per violation with file/line, errors as notifications', async () => {
    const root = repo();
    const r = await check(root, ['--format', 'sarif']);
    expect(r.code).toBe(1);
    expect(await sarifErrors(r.stdout)).toEqual([]);
    const run = JSON.parse(r.stdout).runs[0];
    expect(run.tool.driver.name).toBe('avp');
    const ids = run.tool.driver.rules.map((x: any) => x.id).sort();
    expect(ids).toEqual(['crashes', 'fixme-info', 'hostile', 'no-keys', 'todo-warn']);
    const noKeys = run.tool.driver.rules.find((x: any) => x.id === 'no-keys');
    expect(noKeys.fullDescription.text).toContain('Read them from the environment.');
    const byRule = (id: string) => run.results.filter((x: any) => x.ruleId === id);
    const [key] = byRule('no-keys');
    expect(key.level).toBe('error');
    expect(key.locations[0].physicalLocation.artifactLocation.uri).toBe('src/app.ts');
    expect(key.locations[0].physicalLocation.region.startLine).toBe(2);
    expect(run.tool.driver.rules[key.ruleIndex].id).toBe('no-keys');
    expect(byRule('todo-warn')[0].level).toBe('warning');
    // info findings are logged, not shown: the same rule as the agent's report.
    expect(byRule('fixme-info')).toEqual([]);
    const [evil] = byRule('hostile');
    expect(evil.locations[0].physicalLocation.artifactLocation.uri).toBe('weird%20name%20%231.ts');
    expect(evil.message.text).toContain('::add-mask::hunter2');
    // The crashing validator is a tool notification, not a result, and the run is not "successful".
    expect(byRule('crashes')).toEqual([]);
    const inv = run.invocations[0];
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications).toHaveLength(1);
    expect(inv.toolExecutionNotifications[0].associatedRule.id).toBe('crashes');
    expect(inv.toolExecutionNotifications[0].level).toBe('error');
    expect(inv.toolExecutionNotifications[0].message.text).toContain('fix:');
  });

  test('junit: valid against the Ant JUnit schema; failures are what blocks, validator errors are <error>', async () => {
    const root = repo();
    const r = await check(root, ['--format', 'junit']);
    expect(r.code).toBe(1);
    expect(await junitErrors(r.stdout)).toEqual([]);
    const xml = r.stdout;
    expect(xml).toMatch(/<testcase name="no-keys" classname="avp.PostToolUse.Edit"[^>]*>\s*<failure type="error"/);
    expect(xml).toMatch(/<testcase name="crashes"[^>]*>\s*<error /);
    expect(xml).toMatch(/<testcase name="todo-warn"[^>]*\/>/);
    expect(xml).toContain('warning: todo-warn: src/app.ts:2: found TODO');
    // Hostile text stays character data: nothing it holds became markup.
    expect(xml).not.toContain('<x a=');
    expect(xml).toContain('&lt;x a=&apos;1&apos;&gt;');
  });

  test('the schema checks can fail: broken documents are refused', async () => {
    expect((await sarifErrors('{"version":"2.1.0","runs":[{"tool":{}}]}')).length).toBeGreaterThan(0);
    expect(
      (
        await sarifErrors(
          '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a b"}}}]}]}]}',
        )
      ).length,
    ).toBeGreaterThan(0);
    expect((await junitErrors('<testsuites><testsuite name="a"/></testsuites>')).length).toBeGreaterThan(0);
  });

  test('github: one annotation per finding; judge text cannot start a workflow command', async () => {
    const root = repo();
    const r = await check(root, ['--format', 'github']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^(::(error|warning|notice) [^\n]*::|avp check: )/);
    expect(lines.filter((l) => /^::(add-mask|stop-commands|set-output|error::)/.test(l))).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(/^::error file=src\/app.ts,line=2,title=avp no-keys \(error\)::/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^::warning file=src\/app.ts,line=2,title=avp todo-warn/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^::error file=weird name #1.ts,line=2,.*%0A::add-mask::hunter2%0A/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^::error file=.avp\/validators\/crashes\/VALIDATOR.md,title=avp crashes could not be evaluated::/,
      ),
    );
    expect(lines.at(-1)).toMatch(/^avp check: ERROR: /);
  });

  test('several formats from one run: one on stdout, the others to files; bad --format is refused before any judge', async () => {
    const root = gitRepo({ 'a.ts': 'x\n', '.gitignore': 'runs.log\nout/\n' });
    // Counts its runs: every format must come from the same single run.
    scriptValidator(
      root,
      'counted',
      {},
      `import { appendFileSync } from 'node:fs';\nawait new Response(Bun.stdin.stream()).text();\nappendFileSync(${JSON.stringify(join(root, 'runs.log'))}, 'run\\n');\nconsole.log(JSON.stringify({ passed: false, violations: [{ rule: 'r', file: 'a.ts', line: 1, message: 'bad' }], summary: 'bad' }));\n`,
    );
    writeFileSync(join(root, 'a.ts'), 'y\n');
    const r = await check(root, ['--format', 'github,sarif=out/avp.sarif,junit=out/junit.xml', '--no-cache']);
    expect(r.code).toBe(1);
    expect(r.stdout).toStartWith('::error file=a.ts,line=1');
    expect(await sarifErrors(readFileSync(join(root, 'out/avp.sarif'), 'utf8'))).toEqual([]);
    expect(await junitErrors(readFileSync(join(root, 'out/junit.xml'), 'utf8'))).toEqual([]);
    expect(readFileSync(join(root, 'runs.log'), 'utf8')).toBe('run\n');

    const json = await check(root, ['--json', '--format', 'sarif=out/b.sarif', '--no-cache']);
    expect(JSON.parse(json.stdout).outcome).toBe('ERROR');
    expect(existsSync(join(root, 'out/b.sarif'))).toBe(true);

    for (const bad of [
      ['--format', 'sarf'],
      ['--format', 'sarif,junit'],
      ['--json', '--format', 'sarif'],
      ['--format', 'junit='],
    ]) {
      const b = await check(root, [...bad, '--no-cache']);
      expect(b.code).toBe(2);
      expect(b.stderr).toContain('fix:');
    }
    expect(readFileSync(join(root, 'runs.log'), 'utf8')).toBe('run\nrun\n');
  });

  test('a clean change: PASSED, exit 0, an empty SARIF result list and a JUnit report without failures', async () => {
    const root = gitRepo({ 'a.ts': 'x\n' });
    scriptValidator(root, 'no-keys', {}, lineFinder('sk-live-'));
    writeFileSync(join(root, 'a.ts'), 'y\n');
    const s = await check(root, ['--format', 'sarif']);
    expect(s.code).toBe(0);
    expect(await sarifErrors(s.stdout)).toEqual([]);
    expect(JSON.parse(s.stdout).runs[0].results).toEqual([]);
    const j = await check(root, ['--format', 'junit']);
    expect(j.code).toBe(0);
    expect(await junitErrors(j.stdout)).toEqual([]);
    expect(j.stdout).toContain('failures="0" errors="0"');
  });
});
