/**
 * The documented recipe (docs/phase.md): a `phase-gate` script validator on Stop that runs `avp phase` over the
 * turn's changes, so an agent cannot end a phase with a broken build. Exercised through `avp check --event Stop`
 * (the same engine and judges as the Stop hook) on a real project.
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { avpBin, cleanPath, commandJudge, FIXTURES, gitCommitAll, project } from '../fixtures/phase/harness.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';

/** Hook inputs captured from Claude Code (copies of the shared captures). */
const CAPTURED = join(FIXTURES, 'claude-code');

const T = 180_000;

function gatedProject(): string {
  const dir = project('js-app');
  cpSync(join(FIXTURES, 'recipe/phase-gate'), join(dir, '.avp/validators/phase-gate'), { recursive: true });
  gitCommitAll(dir);
  return dir;
}

async function check(dir: string) {
  const env: Record<string, string> = { PATH: cleanPath(), ...commandJudge(tempDir('avp-phase-judge-'), []) };
  if (process.env.AVP_TEST_FROM_SOURCE) env.AVP_BIN = avpBin();
  return runAvp(['check', '--event', 'Stop', '--json'], { cwd: dir, env, timeoutMs: T, bin: avpBin() });
}

describe('recipe: phase validation as a Stop validator', () => {
  test(
    'a lint error in the changed files blocks; once fixed, the Stop passes',
    async () => {
      const dir = gatedProject();
      const src = readFileSync(join(dir, 'src/sum.js'), 'utf8');
      writeFileSync(
        join(dir, 'src/sum.js'),
        src.replace('  let total = 0;\n', '  let total = 0;\n  const unused = 42;\n'),
      );
      const blocked = await check(dir);
      expect(blocked.code).toBe(1);
      const report = JSON.parse(blocked.stdout);
      const text = JSON.stringify(report);
      const gate = report.validators.find((v: { name: string }) => v.name === 'phase-gate');
      expect(gate).toMatchObject({ passed: false });
      expect(gate.violations.length).toBeGreaterThan(0);
      expect(text).toContain("error 'unused' is assigned a value but never used (no-unused-vars)");
      expect(text).toContain('phase validation failed: linter');

      writeFileSync(join(dir, 'src/sum.js'), src.replace('return total;', 'return total + 0;'));
      const passed = await check(dir);
      expect(passed.stderr).not.toContain('phase validation failed');
      expect(passed.code).toBe(0);
    },
    T,
  );

  test(
    'failing tests block with their count; .avp/phase.json adds request fields',
    async () => {
      const dir = gatedProject();
      writeFileSync(
        join(dir, 'test/sum.test.js'),
        readFileSync(join(dir, 'test/sum.test.js'), 'utf8').replace('sum([1, 2, 3]), 6', 'sum([1, 2, 3]), 5'),
      );
      const blocked = await check(dir);
      expect(blocked.code).toBe(1);
      expect(blocked.stdout).toContain('with 1 failing test(s)');
      writeFileSync(join(dir, '.avp/phase.json'), JSON.stringify({ skip_tests: true }));
      const skipped = await check(dir);
      expect(skipped.code).toBe(0);
    },
    T,
  );

  test(
    'through the real Stop hook: `avp hook` blocks the Stop of a turn that broke lint',
    async () => {
      const dir = gatedProject();
      const file = join(dir, 'src/sum.js');
      const content = readFileSync(file, 'utf8').replace(
        '  let total = 0;\n',
        '  let total = 0;\n  const unused = 42;\n',
      );
      writeFileSync(file, content);
      const base = (name: string) => ({
        ...JSON.parse(readFileSync(join(CAPTURED, name), 'utf8')),
        cwd: dir,
        transcript_path: join(dir, 'transcript.jsonl'),
      });
      const write = {
        ...base('hook-input-PostToolUse-Write.json'),
        tool_input: { file_path: file, content },
        tool_response: {
          type: 'update',
          filePath: file,
          content,
          structuredPatch: [],
          originalFile: null,
          userModified: false,
        },
      };
      const env: Record<string, string> = {
        PATH: cleanPath(),
        CLAUDE_PROJECT_DIR: dir,
        AVP_BUDGET_MS: '170000',
        ...commandJudge(tempDir('avp-phase-judge-'), []),
      };
      if (process.env.AVP_TEST_FROM_SOURCE) env.AVP_BIN = avpBin();
      const home = tempDir('avp-phase-home-');
      const opts = { env: { ...env, HOME: home }, timeoutMs: T, bin: avpBin() };
      const w = await runAvp(['hook'], { ...opts, stdin: JSON.stringify(write) });
      expect(w.code).toBe(0);
      const stop = await runAvp(['hook'], { ...opts, stdin: JSON.stringify(base('hook-input-Stop.json')) });
      expect(stop.code).toBe(0);
      const out = JSON.parse(stop.stdout);
      expect(out.decision).toBe('block');
      expect(out.reason).toContain('[phase-gate] src/sum.js:4');
      expect(out.reason).toContain("error 'unused' is assigned a value but never used (no-unused-vars)");
    },
    T,
  );
});
