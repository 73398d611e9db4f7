import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseInputText, validateInput } from '../../../src/phase/input.ts';

const dir = mkdtempSync(join(tmpdir(), 'avp-phase-input-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

describe('validateInput', () => {
  test('defaults: max_retries 3, skip_build/skip_tests false, no language', async () => {
    const r = await validateInput({ working_directory: dir, changed_files: ['a.ts'] });
    expect(r).toEqual({
      ok: true,
      input: { working_directory: dir, changed_files: ['a.ts'], max_retries: 3, skip_build: false, skip_tests: false },
    });
  });

  test('every alias maps to its canonical language', async () => {
    const pairs = {
      javascript: 'javascript',
      js: 'javascript',
      typescript: 'typescript',
      ts: 'typescript',
      python: 'python',
      py: 'python',
      go: 'go',
      golang: 'go',
      rust: 'rust',
      rs: 'rust',
      ruby: 'ruby',
      rb: 'ruby',
      java: 'java',
    };
    for (const [alias, lang] of Object.entries(pairs)) {
      const r = await validateInput({ working_directory: dir, changed_files: [], language: alias });
      expect(r.ok && r.input.language).toBe(lang as any);
    }
  });

  test('overrides and flags are kept verbatim; boundaries 0 and 10 are valid', async () => {
    for (const max_retries of [0, 10]) {
      const r = await validateInput({
        working_directory: dir,
        changed_files: [],
        format_command: 'black . --check',
        lint_command: 'ruff check . --fix',
        build_command: 'make',
        test_command: 'pytest -v',
        max_retries,
        skip_build: true,
        skip_tests: true,
      });
      expect(r).toEqual({
        ok: true,
        input: {
          working_directory: dir,
          changed_files: [],
          format_command: 'black . --check',
          lint_command: 'ruff check . --fix',
          build_command: 'make',
          test_command: 'pytest -v',
          max_retries,
          skip_build: true,
          skip_tests: true,
        },
      });
    }
  });

  test('missing required parameters come first, all problems are reported', async () => {
    const r = await validateInput({ max_retries: 99 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues.slice(0, 2)).toEqual([
        "Validation failed: missing required parameter 'working_directory'",
        "Validation failed: missing required parameter 'changed_files'",
      ]);
      expect(r.issues).toContain("Validation failed: parameter 'max_retries' must be between 0 and 10 (got 99)");
    }
  });

  test('null and non-object input', async () => {
    for (const v of [null, 'x', 3, true]) {
      const r = await validateInput(v);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.issues[0]).toStartWith('Validation failed: input must be a JSON object');
    }
  });
});

describe('parseInputText', () => {
  test('JSON, blank and broken text', () => {
    expect(parseInputText(' {"a":1} ', 'stdin')).toEqual({ ok: true, data: { a: 1 } });
    expect(parseInputText(' \n', 'stdin')).toEqual({
      ok: false,
      issues: ['Validation failed: no input on stdin (expected a JSON object)'],
    });
    const bad = parseInputText('{', "input file 'x'");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0]).toStartWith("Validation failed: input file 'x' is not valid JSON: ");
  });
});
