/**
 * docs/testing.md's recipe, verbatim through the compiled binary: a validator written by following it gets its
 * first failing and passing cases, and a wrong expectation fails `avp test`.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { AVP_BIN } from '../support/run-avp.ts';
import { consoleBlock, runSteps } from '../support/readme-blocks.ts';

const DOC = resolve(import.meta.dir, '../../docs/testing.md');

describe('docs/testing.md', () => {
  test('the five-minute recipe runs as written', async () => {
    const steps = consoleBlock('## Your first cases in five minutes', DOC);
    expect(steps.length).toBeGreaterThanOrEqual(6);
    const project = realpathSync(mkdtempSync(join(tmpdir(), 'avp-testing-doc-')));
    Bun.spawnSync(['git', 'init', '-q'], { cwd: project });
    const env = {
      PATH: `${dirname(AVP_BIN)}:/usr/bin:/bin`,
      HOME: mkdtempSync(join(tmpdir(), 'avp-testing-doc-home-')),
    };
    await runSteps(steps, project, env);
  });
});
