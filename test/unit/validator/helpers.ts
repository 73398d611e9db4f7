/** Test helpers for the format tests: throwaway validator trees on disk. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'bun:test';
import type { Validator, ValidatorSpec } from '../../../src/validator/types.ts';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh temp dir holding `files` (relative path → content); removed after the test file. */
export function tree(files: Record<string, string> = {}, prefix = 'avp-format-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  made.push(root);
  write(root, files);
  return root;
}

/** Writes `files` under `root`. */
export function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** A VALIDATOR.md text: frontmatter from `fields` (YAML lines, in order) + body. */
export function md(fields: Record<string, string | undefined>, body = '# Check\n\nLook at the change.\n'): string {
  const lines = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => (v!.startsWith('\n') ? `${k}:${v}` : `${k}: ${v}`));
  return `---\n${lines.join('\n')}\n---\n${body}`;
}

/** The minimal valid frontmatter for `name`, overridable. */
export function valid(name: string, extra: Record<string, string | undefined> = {}): string {
  return md({ name, description: `Checks ${name}.`, severity: 'error', trigger: 'PostToolUse', ...extra });
}

/** A one-file validator of `root` with the minimal spec, `spec` overriding it: for tests of matching and running. */
export function specValidator(id: string, spec: Partial<ValidatorSpec> = {}, root = '/home/dev/project'): Validator {
  return {
    id,
    name: id,
    source: 'project',
    form: 'file',
    path: `${root}/.avp/validators/${id}.md`,
    spec: {
      name: id,
      description: 'd',
      severity: 'error',
      trigger: 'PostToolUse',
      match: {},
      tags: [],
      once: false,
      timeout: 60,
      ...spec,
    },
    body: '',
    references: [],
    hash: 'h',
  };
}
