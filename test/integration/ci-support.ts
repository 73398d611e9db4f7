/** Helpers for the CI tests: git repositories with script validators, and the schemas the CI formats must meet. */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runAvp, tempDir, type AvpRun } from '../support/run-avp.ts';

export const SCHEMAS = resolve(import.meta.dir, '../fixtures/schemas');

export function sh(cwd: string, cmd: string): string {
  const p = Bun.spawnSync(['bash', '-c', cmd], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${cmd}: ${p.stderr}`);
  return p.stdout.toString();
}

/** A script validator (TypeScript on avp's runtime) under `<root>/.avp/validators/<name>/`. */
export function scriptValidator(
  root: string,
  name: string,
  fm: { severity?: string; trigger?: string; tools?: string[]; description?: string },
  source: string,
): void {
  const dir = join(root, '.avp/validators', name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(
    join(dir, 'VALIDATOR.md'),
    [
      '---',
      `name: ${name}`,
      `description: ${JSON.stringify(fm.description ?? `Test validator ${name}.`)}`,
      `severity: ${fm.severity ?? 'error'}`,
      `trigger: ${fm.trigger ?? 'PostToolUse'}`,
      ...(fm.tools ? ['match:', `  tools: [${fm.tools.join(', ')}]`] : []),
      'script: scripts/check.ts',
      '---',
      `Rules of ${name}.`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'scripts/check.ts'), source);
  chmodSync(join(dir, 'scripts/check.ts'), 0o755);
}

/**
 * One violation per line matching `pattern` in the new content of each file (file, line, snippet); `suffix` ends
 * each message.
 */
export const lineFinder = (pattern: string, suffix = '') => `export {};
const event = JSON.parse(await new Response(Bun.stdin.stream()).text());
const violations = [];
for (const f of event.files ?? []) {
  String(f.after ?? '').split('\\n').forEach((text, i) => {
    if (new RegExp(${JSON.stringify(pattern)}).test(text)) {
      violations.push({ rule: ${JSON.stringify(pattern)}, file: f.relPath, line: i + 1, snippet: text.trim(), message: 'found ' + ${JSON.stringify(pattern)} + ${JSON.stringify(suffix)}, suggestion: 'remove it' });
    }
  });
}
console.log(JSON.stringify({ passed: violations.length === 0, violations, summary: violations.length + ' finding(s)' }));
`;

/** A fresh git repository on branch `main` with one commit holding `files`. */
export function gitRepo(files: Record<string, string> = {}): string {
  const root = tempDir('avp-ci-');
  sh(root, 'git init -q -b main && git config user.email t@example.com && git config user.name t');
  mkdirSync(join(root, '.avp/validators'), { recursive: true });
  // What `avp init` writes: logs, state and caches stay out of git (and out of `--diff`).
  writeFileSync(join(root, '.avp/.gitignore'), 'state/\nlogs/\ncache/\n.staging/\n');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  sh(root, 'git add -A && git commit -qm init --allow-empty');
  return root;
}

export const check = (root: string, args: string[], env: Record<string, string> = {}): Promise<AvpRun> =>
  runAvp(['check', ...args], { cwd: root, env });

/** Validates a SARIF text against the published SARIF 2.1.0 schema (a draft-04 JSON schema). */
export async function sarifErrors(text: string): Promise<string[]> {
  const [{ default: Ajv }, { default: addFormats }] = await Promise.all([
    import('ajv-draft-04'),
    import('ajv-formats'),
  ]);
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  // uri, uri-reference and date-time are checked too (artifact locations are URI references).
  addFormats(ajv as never);
  const schema = JSON.parse(readFileSync(join(SCHEMAS, 'sarif-schema-2.1.0.json'), 'utf8'));
  const validate = ajv.compile(schema);
  return validate(JSON.parse(text)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** Validates a JUnit XML text against the Apache Ant JUnit schema with libxml2 (xmllint compiled to wasm). */
export async function junitErrors(text: string): Promise<string[]> {
  const { validateXML } = await import('xmllint-wasm');
  const r = await validateXML({
    xml: [{ fileName: 'report.xml', contents: text }],
    schema: [{ fileName: 'junit-ant.xsd', contents: readFileSync(join(SCHEMAS, 'junit-ant.xsd'), 'utf8') }],
  });
  return r.valid ? [] : r.errors.map((e) => e.message);
}
