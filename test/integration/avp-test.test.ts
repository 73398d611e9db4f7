/**
 * `avp test` through the binary: a validator's tests/ folder (annotated files and case files) run through match,
 * judge and aggregation; misses, false alarms and unmatched cases fail with exit 1; JSON and JUnit reports; an LLM
 * validator asked the configured judge (a loopback Anthropic server), `--repeat` counting a flaky judge's verdicts,
 * the verdict cache only with `--cache`; `avp new` scaffolds cases, `avp lint` notes a validator without them.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.ts';
import { runAvp } from '../support/run-avp.ts';

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function project(): { root: string; home: string; write: (rel: string, text: string) => void } {
  const root = mkdtempSync(join(tmpdir(), 'avp-test-'));
  const home = mkdtempSync(join(tmpdir(), 'avp-test-home-'));
  mkdirSync(join(root, '.git'));
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  return { root, home, write };
}

/** A script validator flagging `TODO` (rule todo) and `FIXME` (rule fixme) in written files, and `rm -rf` commands. */
function scriptValidator(p: ReturnType<typeof project>, trigger = 'PostToolUse'): string {
  const dir = '.avp/validators/markers';
  p.write(
    `${dir}/VALIDATOR.md`,
    `---\nname: markers\ndescription: Flags TODO and FIXME markers in written files.\nseverity: error\n` +
      `trigger: ${trigger}\nmatch:\n  tools: [Write, Edit, Bash]\n  files: ["src/**"]\nscript: scripts/check.ts\n---\n\n# markers\n`,
  );
  p.write(
    `${dir}/scripts/check.ts`,
    `import { readFileSync } from 'node:fs';\nconst e = JSON.parse(readFileSync(0, 'utf8'));\nconst v: object[] = [];\n` +
      `for (const f of e.files ?? []) String(f.after ?? '').split('\\n').forEach((t: string, i: number) => {\n` +
      `  if (/\\bTODO\\b/.test(t)) v.push({ rule: 'todo', file: f.relPath, line: i + 1 });\n` +
      `  if (/\\bFIXME\\b/.test(t)) v.push({ rule: 'fixme', file: f.relPath, line: i + 1 });\n});\n` +
      `if (/rm -rf/.test(String(e.toolInput?.command ?? ''))) v.push({ rule: 'rm' });\n` +
      `console.log(JSON.stringify({ passed: !v.length, violations: v, summary: v.length + ' found' }));\n`,
  );
  return dir;
}

const run = (p: ReturnType<typeof project>, args: string[], env: Record<string, string> = {}) =>
  runAvp(['test', ...args], { cwd: p.root, env: { HOME: p.home, ...env }, timeoutMs: 60_000 });

describe('avp test', () => {
  test('annotated files and case files: caught, let through, per rule; exit 0 when every case holds', async () => {
    const p = project();
    const dir = scriptValidator(p);
    p.write(`${dir}/tests/src/a.ts`, 'const x = 1; // TODO later  avp:expect todo\n// FIXME: avp:expect fixme\n');
    p.write(`${dir}/tests/src/clean.ts`, 'export const ok = 1;\n');
    p.write(`${dir}/tests/other.py`, '# avp:path src/lib/mod.py\nx = 1  # TODO  avp:expect todo\n');
    p.write(`${dir}/tests/rm.case.yaml`, 'command: rm -rf build\nexpect: [rm]\n');
    p.write(`${dir}/tests/ls.case.json`, '{"command": "ls -la", "expect": "pass"}\n');
    p.write(`${dir}/tests/edit.case.yaml`, 'path: src/e.ts\nbefore: "a\\n"\ncontent: "a\\nTODO b\\n"\nexpect: fail\n');
    const r = await run(p, []);
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('markers (script): 6 cases, all pass');
    expect(r.stdout).toMatch(/todo\s+2\s+2\s+0\s+0/);
    expect(r.stdout).toMatch(/\*\s+1\s+1\s+0\s+0/);
    expect(r.stdout).toMatch(/fixme\s+1\s+1\s+0\s+0/);
    expect(r.stdout).toMatch(/\(must pass\)\s+2\s+2\s+0\s+0/);
    const json = JSON.parse((await run(p, ['markers', '--json'])).stdout);
    expect(json).toMatchObject({ ok: true, cases: 6, failed: 0 });
    // The annotation is cut from what the validator sees: a judge is never told the answer.
    const names = json.validators[0].cases.map((c: { case: string }) => c.case);
    expect(names).toContain('other.py');
  });

  test('a missed rule, a false alarm and a case no validator matches each fail, with exit 1 and JUnit', async () => {
    const p = project();
    const dir = scriptValidator(p);
    p.write(`${dir}/tests/src/missed.ts`, 'const x = 1; // avp:expect todo\n');
    p.write(`${dir}/tests/src/alarm.ts`, '// FIXME here\n');
    p.write(`${dir}/tests/docs/readme.ts`, 'TODO // avp:expect todo\n');
    p.write(`${dir}/tests/bad.case.yaml`, 'command: ls\nexpect: maybe\n');
    // The annotation on the wrong line: the validator names line 2, the case says line 1.
    p.write(`${dir}/tests/src/shifted.ts`, 'const a = 1; // avp:expect todo\nconst b = 2; // TODO\n');
    const r = await run(p, ['--junit', 'out/avp-test.xml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL src/shifted.ts: missed todo (line 1); false alarm todo (line 2)');
    const xml = readFileSync(join(p.root, 'out/avp-test.xml'), 'utf8');
    expect(xml).toContain('<testsuite name="markers" tests="5" failures="5"');
    rmSync(join(p.root, dir, 'tests/src/shifted.ts'));
  });

  test('the same failures without the shifted case: JUnit and the per-case lines', async () => {
    const p = project();
    const dir = scriptValidator(p);
    p.write(`${dir}/tests/src/missed.ts`, 'const x = 1; // avp:expect todo\n');
    p.write(`${dir}/tests/src/alarm.ts`, '// FIXME here\n');
    p.write(`${dir}/tests/docs/readme.ts`, 'TODO // avp:expect todo\n');
    p.write(`${dir}/tests/bad.case.yaml`, 'command: ls\nexpect: maybe\n');
    const r = await run(p, ['--junit', 'out/avp-test.xml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('4 cases, 4 failed');
    expect(r.stdout).toContain('FAIL src/missed.ts: missed todo');
    expect(r.stdout).toContain('FAIL src/alarm.ts: false alarm fixme');
    expect(r.stdout).toContain('FAIL docs/readme.ts: no validator matched the case (PostToolUse Write docs/readme.ts)');
    expect(r.stdout).toContain('FAIL bad.case.yaml');
    const xml = readFileSync(join(p.root, 'out/avp-test.xml'), 'utf8');
    expect(xml).toContain('<testsuite name="markers" tests="4" failures="4"');
    expect(xml).toContain('<failure message="FAIL src/missed.ts: missed todo">');
  });

  test('a PreToolUse validator sees the old content on disk; Bash cases as PreToolUse; a path, an unknown name', async () => {
    const p = project();
    const dir = scriptValidator(p, 'PreToolUse');
    p.write(`${dir}/tests/rm.case.yaml`, 'command: rm -rf /\nexpect: [rm]\n');
    p.write(`${dir}/tests/src/b.ts`, 'TODO  avp:expect todo\n');
    expect((await run(p, [dir])).stdout).toContain('markers (script): 2 cases, all pass');
    const unknown = await run(p, ['nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no validator named nope');
  });

  test('validators without tests are named; tests/*.md is never a validator for lint, list or the hook', async () => {
    const p = project();
    const dir = scriptValidator(p);
    p.write(
      '.avp/validators/plain/VALIDATOR.md',
      '---\nname: plain\ndescription: Passes every change.\nseverity: warn\ntrigger: Stop\nscript: scripts/c.ts\n---\n# p\n',
    );
    p.write('.avp/validators/plain/scripts/c.ts', 'console.log(JSON.stringify({ passed: true, violations: [] }));\n');
    p.write(`${dir}/tests/src/notes.md`, '---\nname: not-a-validator\n---\nTODO  avp:expect todo\n');
    p.write(`${dir}/tests/src/x.md`, 'plain text\n');
    const r = await run(p, []);
    expect(r.stdout).toContain('no tests: plain');
    const lint = await runAvp(['lint'], { cwd: p.root, env: { HOME: p.home } });
    expect(lint.stdout).not.toContain('not-a-validator');
    expect(lint.stdout).toContain('plain/VALIDATOR.md:1:1: warning: no test cases');
    expect(lint.stdout).not.toContain('markers/VALIDATOR.md:1:1: warning: no test cases');
    const list = await runAvp(['list', '--json'], { cwd: p.root, env: { HOME: p.home } });
    expect(list.stdout).not.toContain('not-a-validator');
    // A validator that does not load fails the run (its cases cannot run).
    p.write('.avp/validators/broken/VALIDATOR.md', '---\nname: broken\n---\n# b\n');
    const broken = await run(p, []);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('FAIL (load): does not load:');
  });

  test('avp new --script: its scaffolded cases pass at once; breaking the check makes the failing case miss', async () => {
    const p = project();
    const made = await runAvp(['new', 'my-rule', '--script'], { cwd: p.root, env: { HOME: p.home } });
    expect(made.code).toBe(0);
    const r = await run(p, ['my-rule']);
    expect(r.stdout).toContain('my-rule (script): 2 cases, all pass');
    expect(r.code).toBe(0);
    const check = join(p.root, '.avp/validators/my-rule/scripts/check.ts');
    writeFileSync(check, readFileSync(check, 'utf8').replace('DO NOT COMMIT', 'NEVER MATCHES'));
    const broken = await run(p, ['my-rule']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('FAIL src/flagged.ts: missed marker');
  });

  test('tests/ is outside the accepted state: a new case needs no avp accept (the hook never reads it)', async () => {
    const p = project();
    const env = { HOME: p.home };
    expect((await runAvp(['new', 'my-rule', '--script'], { cwd: p.root, env })).code).toBe(0);
    p.write('.avp/validators/my-rule/tests/src/more.ts', 'let a = 1; // DO NOT COMMIT avp:expect marker\n');
    expect((await runAvp(['accept'], { cwd: p.root, env })).stdout).toContain('Nothing to accept');
    // A change to what runs still waits for acceptance.
    p.write('.avp/validators/my-rule/scripts/check.ts', 'console.log("{}");\n');
    expect((await runAvp(['accept', '--json'], { cwd: p.root, env })).stdout).toContain('scripts/check.ts');
  });

  test('avp lint notes missing cases only in the author validators, not in one avp installed', async () => {
    const p = project();
    const env = { HOME: p.home };
    expect((await runAvp(['add', 'catalog:no-secrets'], { cwd: p.root, env })).code).toBe(0);
    const lint = await runAvp(['lint'], { cwd: p.root, env });
    expect(lint.stdout).not.toContain('no test cases');
  });

  test('an LLM validator: asked the configured judge each time; --repeat counts a flaky judge; --cache reuses', async () => {
    const p = project();
    p.write(
      '.avp/validators/llm-rule/VALIDATOR.md',
      '---\nname: llm-rule\ndescription: Flags code that hides errors.\nseverity: error\ntrigger: PostToolUse\n' +
        'match:\n  tools: [Write]\n---\n\n# llm-rule\n\nFlag a swallowed error.\n',
    );
    p.write('.avp/validators/llm-rule/tests/src/swallow.ts', 'try { f() } catch {} // avp:expect swallowed\n');
    let n = 0;
    server = await startAnthropicServer(() => {
      n++;
      const fail = n % 2 === 1; // flaky: fail, pass, fail, …
      const input = fail
        ? { passed: false, violations: [{ rule: 'swallowed', message: 'catch block is empty' }], summary: 'bad' }
        : { passed: true, violations: [], summary: 'ok' };
      return { toolUse: { name: 'report_verdict', input } };
    });
    const env = { PATH: '/usr/bin:/bin', ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'k' };
    const r = await run(p, ['--repeat', '4'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL src/swallow.ts: missed swallowed; same verdict 2/4');
    expect(server.requests).toHaveLength(4);
    const body = JSON.stringify(server.requests[0]!.body);
    expect(body).toContain('catch {}');
    expect(body).not.toContain('avp:expect');
    // Without --cache every run asks again; with it, a stored verdict answers.
    await run(p, ['--cache'], env);
    const before = server.requests.length;
    await run(p, ['--cache'], env);
    expect(server.requests.length).toBe(before);
    await run(p, [], env);
    expect(server.requests.length).toBe(before + 1);
  });
});
