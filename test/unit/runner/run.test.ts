import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig } from '../../../src/config/config.ts';
import type { AvpConfig } from '../../../src/config/types.ts';
import { runValidators } from '../../../src/runner/run.ts';
import { judgeFor as selectJudge } from '../../../src/judges/select.ts';
import type { HookEvent } from '../../../src/protocol/event.ts';
import type { Validator } from '../../../src/validator/types.ts';
import { barrierScript } from '../../support/barrier.ts';
import { tempDir } from '../../support/run-avp.ts';
import { specValidator } from '../validator/helpers.ts';

const root = tempDir('avp-e-run-');

/** A directory validator whose judge is `scripts/<file>` with the given content. */
function scriptValidator(
  name: string,
  file: string,
  content: string,
  over: Partial<Validator['spec']> = {},
): Validator {
  const dir = join(root, '.avp/validators', name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(join(dir, 'scripts', file), content);
  chmodSync(join(dir, 'scripts', file), 0o755);
  return {
    ...specValidator(name, { timeout: 10, script: `scripts/${file}`, ...over }),
    form: 'directory',
    path: join(dir, 'VALIDATOR.md'),
    dir,
    body: `Rules of ${name}.`,
    hash: name,
  };
}

const sh = (body: string) => `#!/bin/sh\n${body}\n`;
const PASS_OBJ = '{"passed":true,"violations":[],"summary":"ok"}';
const PASS_JSON = `'${PASS_OBJ}'`;
const ALONE_OBJ = '{"passed":false,"violations":[{"rule":"alone"}],"summary":"ran alone"}';

const event: HookEvent = {
  agent: 'claude',
  event: 'PostToolUse',
  tool: 'Write',
  cwd: root,
  projectRoot: root,
  files: [
    {
      path: join(root, 'src/a.ts'),
      relPath: 'src/a.ts',
      inProject: true,
      kind: 'create',
      before: null,
      after: 'const k = "sk-live-1";\n',
    },
  ],
  raw: {},
};
const config = (over: Partial<AvpConfig> = {}): AvpConfig => ({ ...defaultConfig(), ...over });

describe('runValidators with real judge processes', () => {
  test('script verdicts: pass and fail, the event on stdin, identity and recursion guard in env', async () => {
    const env = scriptValidator(
      'env-check',
      'check.sh',
      sh(`read -r line; case "$line" in *src/a.ts*) ;; *) exit 9;; esac
printf '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":"1","suggestion":"s"}],"summary":"%s %s %s"}' "$AVP_VALIDATOR_NAME" "$AVP_SUBAGENT" "$AVP_PROJECT_ROOT"`),
    );
    const ok = scriptValidator('ok', 'ok.sh', sh(`cat >/dev/null; echo ${PASS_JSON}`));
    const runs = await runValidators([env, ok], [], event, config());
    expect(runs.map((r) => r.status)).toEqual(['failed', 'passed']);
    expect(runs[0]!.verdict!.summary).toBe(`env-check 1 ${root}`);
    expect(runs[0]!.verdict!.violations[0]).toMatchObject({ rule: 'r', file: 'src/a.ts', line: 1 });
    expect(runs[0]!.judge).toBe('script');
  });

  test("a TypeScript script runs on avp's own runtime", async () => {
    const ts = scriptValidator(
      'ts-check',
      'check.ts',
      `const e = JSON.parse(await Bun.stdin.text()) as { files: Array<{ after?: string; relPath: string }> };
const bad = e.files.filter((f) => (f.after ?? '').includes('sk-live'));
console.log(JSON.stringify({ passed: bad.length === 0, violations: bad.map((f) => ({ rule: 'key', file: f.relPath, line: 1 })), summary: 'ts' }));`,
    );
    const [run] = await runValidators([ts], [], event, config());
    expect(run!.status).toBe('failed');
    expect(run!.verdict!.violations).toEqual([{ rule: 'key', file: 'src/a.ts', line: 1 }]);
  });

  test('parallel: 5 validators are all running at once (each waits until the other 4 have started)', async () => {
    const dir = join(root, 'barrier-parallel');
    const vs = Array.from({ length: 5 }, (_, i) =>
      scriptValidator(`together-${i}`, 's.sh', sh(barrierScript(dir, 5, PASS_OBJ, ALONE_OBJ))),
    );
    const runs = await runValidators(vs, [], event, config({ concurrency: 8 }));
    expect(runs.map((r) => r.verdict?.summary)).toEqual(Array(5).fill('ok'));
  });

  test('concurrency bound: with concurrency 1 the same validators run one after another', async () => {
    const vs = Array.from({ length: 3 }, (_, i) =>
      scriptValidator(`seq-${i}`, 's.sh', sh(`cat >/dev/null; sleep 0.4; echo ${PASS_JSON}`)),
    );
    const t0 = performance.now();
    await runValidators(vs, [], event, config({ concurrency: 1 }));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1150);
  });

  test("timeout: an error run naming the timeout, and the judge's whole process group is killed", async () => {
    const marker = join(root, 'child.pid');
    const slow = scriptValidator('slow', 'slow.sh', sh(`sleep 30 & echo $! > ${marker}; wait`), { timeout: 1 });
    const t0 = performance.now();
    const [run] = await runValidators([slow], [], event, config());
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(run).toMatchObject({ status: 'error', severity: 'error' });
    expect(run!.error!.cause).toContain('timed out after 1 s');
    expect(run!.error!.fix).toContain('AVP_DISABLE=1');
    const pid = Number(readFileSync(marker, 'utf8'));
    await Bun.sleep(100);
    expect(existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z')).toBe(false);
  });

  test('a judge that leaves a background child holding stdout open still answers at once', async () => {
    const v = scriptValidator('daemon', 'd.sh', sh(`cat >/dev/null; sleep 30 & echo ${PASS_JSON}`));
    const t0 = performance.now();
    const [run] = await runValidators([v], [], event, config());
    expect(run!.status).toBe('passed');
    expect(performance.now() - t0).toBeLessThan(15_000);
  });

  test("budget: validators still running when the call's budget ends become errors naming the budget", async () => {
    const slow = scriptValidator('over-budget', 's.sh', sh('sleep 20'), { timeout: 60 });
    const [run] = await runValidators([slow], [], event, config(), { deadline: Date.now() + 800 });
    expect(run!.status).toBe('error');
    expect(run!.error!.cause).toContain("avp's budget");
  });

  const failures: Array<[string, string, RegExp]> = [
    [
      'non-zero exit (with stderr tail)',
      sh('cat >/dev/null; echo "boom: cannot parse" >&2; exit 3'),
      /exited with code 3[\s\S]*boom: cannot parse/,
    ],
    ['empty output', sh('cat >/dev/null; exit 0'), /printed nothing/],
    ['prose instead of JSON', sh('cat >/dev/null; echo looks fine to me'), /not JSON/],
    ['JSON that is not a verdict', sh(`cat >/dev/null; echo '{"passed":"yes"}'`), /not an AVP response/],
    ['killed by a signal', sh('kill -9 $$'), /killed by SIGKILL/],
    ['more than 4 MiB on stdout', sh('cat >/dev/null; head -c 6000000 /dev/zero | tr "\\0" a'), /more than 4 MiB/],
  ];
  for (const [what, script, cause] of failures) {
    test(`fail closed: ${what}`, async () => {
      const v = scriptValidator(`bad-${what.replace(/\W+/g, '-')}`, 'bad.sh', script);
      const [run] = await runValidators([v], [], event, config());
      expect(run!.status).toBe('error');
      expect(run!.error!.cause).toMatch(cause);
      expect(run!.error!.fix).toContain(v.id);
    });
  }

  test('fail closed: missing script (missing reference)', async () => {
    const v = scriptValidator('gone', 'x.sh', sh('exit 0'));
    v.spec = { ...v.spec, script: 'scripts/missing.sh' };
    const [run] = await runValidators([v], [], event, config());
    expect(run!.error!.cause).toContain('missing reference');
  });

  test('fail closed: no judge configured for an LLM validator', async () => {
    const v = scriptValidator('llm', 'x.sh', sh('exit 0'));
    delete v.spec.script;
    // No backend anywhere: `npm test` puts node_modules/.bin (the real `claude` CLI) on PATH, so hide it.
    const judgeFor = (val: Validator, c: AvpConfig) => selectJudge(val, c, { PATH: '/nonexistent' });
    const [run] = await runValidators([v], [], event, config(), { judgeFor });
    expect(run!.status).toBe('error');
    expect(run!.error!.cause).toMatch(/no (LLM )?judge/);
  });

  test('load errors become error runs (severity error unless overridden)', async () => {
    const runs = await runValidators(
      [],
      [{ source: 'project', path: '/p/.avp/validators/x/VALIDATOR.md', line: 3, message: 'bad YAML', fix: 'fix it' }],
      event,
      config(),
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: 'x', status: 'error', severity: 'error' });
    expect(runs[0]!.error!.cause).toBe('cannot load /p/.avp/validators/x/VALIDATOR.md:3: bad YAML');
    const [warned] = await runValidators(
      [],
      [{ source: 'project', path: '/p/y.md', message: 'm', fix: 'f', name: 'y' }],
      event,
      config({ severity: { y: 'warn' } }),
    );
    expect(warned!.severity).toBe('warn');
  });

  test('severity overrides from config apply to runs', async () => {
    const v = scriptValidator(
      'ovr',
      'o.sh',
      sh(`cat >/dev/null; echo '{"passed":false,"violations":[],"summary":"x"}'`),
    );
    const [run] = await runValidators([v], [], event, config({ severity: { ovr: 'info' } }));
    expect(run!.severity).toBe('info');
  });
});

describe('command judge', () => {
  test('gets the prompt on stdin and returns the parsed verdict', async () => {
    const v = scriptValidator('cmd', 'unused.sh', '');
    delete v.spec.script;
    const judge = join(root, 'judge.sh');
    writeFileSync(
      judge,
      sh(
        `prompt=$(cat); case "$prompt" in *"Rules of cmd."*src/a.ts*) echo 'Verdict: {"passed": false, "violations": [{"rule": "cmd", "file": "src/a.ts", "line": 1, "snippet": "x", "suggestion": "y"}], "summary": "seen"}';; *) echo DENY - prompt incomplete;; esac`,
      ),
    );
    chmodSync(judge, 0o755);
    const [run] = await runValidators(
      [v],
      [],
      event,
      config({ judge: { ...defaultConfig().judge, backend: 'command', command: `sh ${judge}` } }),
    );
    expect(run!.status).toBe('failed');
    expect(run!.judge).toBe('command');
    expect(run!.verdict!.summary).toBe('seen');
  });

  test('a failing command is a validator error', async () => {
    const v = scriptValidator('cmd2', 'unused.sh', '');
    delete v.spec.script;
    const [run] = await runValidators(
      [v],
      [],
      event,
      config({ judge: { ...defaultConfig().judge, backend: 'command', command: 'echo nope >&2; exit 4' } }),
    );
    expect(run!.status).toBe('error');
    expect(run!.error!.cause).toMatch(/exited with code 4[\s\S]*nope/);
  });
});

describe('in-process path for scripts exporting validate() (AVP_SCRIPT_WORKER=1)', () => {
  beforeAll(() => {
    process.env.AVP_SCRIPT_WORKER = '1';
  });
  afterAll(() => {
    delete process.env.AVP_SCRIPT_WORKER;
  });

  test('validate() runs in a Worker of this process, with the validator env', async () => {
    const v = scriptValidator(
      'worker-ok',
      'check.ts',
      `export function validate(event: { files: Array<{ relPath: string }> }) {
  console.log('debug output must not reach stdout');
  return { passed: false, violations: [{ rule: 'w', file: event.files[0]!.relPath, line: 1 }], summary: \`pid \${process.pid} \${process.env.AVP_VALIDATOR_ID}\` };
}
if (import.meta.main) { console.log(JSON.stringify({ passed: true, violations: [], summary: 'process' })); }`,
    );
    const [run] = await runValidators([v], [], event, config());
    expect(run!.status).toBe('failed');
    expect(run!.verdict!.summary).toBe(`pid ${process.pid} worker-ok`);
    expect(run!.verdict!.violations[0]).toMatchObject({ file: 'src/a.ts', line: 1 });
  });

  test('validate() that throws is a validator error', async () => {
    const v = scriptValidator(
      'worker-throws',
      'check.ts',
      `export async function validate() { throw new Error('rule table missing'); }`,
    );
    const [run] = await runValidators([v], [], event, config());
    expect(run!.status).toBe('error');
    expect(run!.error!.cause).toContain('rule table missing');
  });

  test('validate() that never returns is stopped at its timeout', async () => {
    const v = scriptValidator('worker-loops', 'check.ts', `export function validate() { for (;;) {} }`, { timeout: 1 });
    const t0 = performance.now();
    const [run] = await runValidators([v], [], event, config());
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(run!.error!.cause).toContain('timed out after 1 s');
  });

  test('a module that cannot be imported falls back to running the script as a process', async () => {
    const v = scriptValidator(
      'worker-fallback',
      'check.ts',
      `const input = JSON.parse(await Bun.stdin.text());
export function validate() { return { passed: false, violations: [], summary: 'worker' }; }
console.log(JSON.stringify({ passed: true, violations: [], summary: 'process saw ' + input.event }));`,
    );
    const [run] = await runValidators([v], [], event, config());
    expect(run!.verdict!.summary).toBe('process saw PostToolUse');
  });
});
