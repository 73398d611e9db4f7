import { statSync, accessSync, constants } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { INPUT_SCHEMA } from './input-schema.ts';
import type { Language, PhaseInput } from './types.ts';

/** The schema's language aliases, resolved to canonical names. */
const ALIASES: Record<string, Language> = {
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

export type InputResult = { ok: true; input: PhaseInput } | { ok: false; issues: string[] };

let compiled: ValidateFunction | undefined;

/** ajv compiled once per process from the seed's schema verbatim, so "valid" means exactly what the schema says. */
async function validator(): Promise<ValidateFunction> {
  if (compiled) return compiled;
  const { default: Ajv } = await import('./ajv.ts');
  compiled = new Ajv({ allErrors: true, strict: false }).compile(INPUT_SCHEMA);
  return compiled;
}

/** `changed_files[2]` from ajv's `/changed_files/2`. */
function paramName(err: ErrorObject): string {
  const parts = err.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts.length === 0) return '';
  return parts.map((p, i) => (i > 0 && /^\d+$/.test(p) ? `[${p}]` : i > 0 ? `.${p}` : p)).join('');
}

/** One ajv error as the sentence the protocol's Example 4 uses ("Validation failed: …"). */
function describe(err: ErrorObject, data: unknown): string {
  const name = paramName(err);
  const p = err.params as Record<string, any>;
  const value = err.instancePath ? pick(data, err.instancePath) : data;
  const got = value === undefined ? '' : ` (got ${JSON.stringify(value)?.slice(0, 80)})`;
  switch (err.keyword) {
    case 'required':
      return `Validation failed: missing required parameter '${p.missingProperty}'`;
    case 'additionalProperties':
      return `Validation failed: unknown parameter '${p.additionalProperty}' (allowed: ${Object.keys(INPUT_SCHEMA.properties).join(', ')})`;
    case 'type':
      return name
        ? `Validation failed: parameter '${name}' must be ${article(p.type)}${got}`
        : `Validation failed: input must be a JSON object${got}`;
    case 'enum':
      return `Validation failed: parameter '${name}' must be one of ${(p.allowedValues as string[]).join(', ')}${got}`;
    case 'minimum':
    case 'maximum':
      return `Validation failed: parameter '${name}' must be between ${INPUT_SCHEMA.properties.max_retries.minimum} and ${INPUT_SCHEMA.properties.max_retries.maximum}${got}`;
    case 'minLength':
      return `Validation failed: parameter '${name}' must not be empty`;
    case 'pattern':
      return `Validation failed: parameter '${name}' must be an absolute path (starting with '/')${got}`;
    default:
      return `Validation failed: parameter '${name}' ${err.message ?? 'is invalid'}${got}`;
  }
}

function article(type: string): string {
  return type === 'array'
    ? 'an array of strings'
    : type === 'integer'
      ? 'an integer'
      : type === 'object'
        ? 'an object'
        : `a ${type}`;
}

function pick(data: unknown, pointer: string): unknown {
  let v: any = data;
  for (const part of pointer.split('/').slice(1)) v = v?.[part];
  return v;
}

/** Required-field errors first (Example 4 names the missing parameter first), then the schema's property order. */
function rank(err: ErrorObject): number {
  if (err.keyword === 'required') return 0;
  if (err.keyword === 'additionalProperties') return 1;
  return 2;
}

/**
 * Validates `data` exactly against the seed's input schema, then the rules the schema cannot express
 * (`working_directory` exists, is a directory and is accessible). Never throws: problems come back as issue strings.
 */
export async function validateInput(data: unknown): Promise<InputResult> {
  const validate = await validator();
  if (!validate(data)) {
    const errors = [...(validate.errors ?? [])].sort((a, b) => rank(a) - rank(b));
    const issues = [...new Set(errors.map((e) => describe(e, data)))];
    return { ok: false, issues };
  }
  const raw = data as Record<string, any>;
  const dir: string = raw.working_directory;
  try {
    const st = statSync(dir);
    if (!st.isDirectory()) return fail(`Validation failed: working_directory '${dir}' is not a directory`);
    accessSync(dir, constants.R_OK | constants.X_OK);
  } catch (e: any) {
    if (e?.code === 'ENOENT' || e?.code === 'ENOTDIR')
      return fail(`Validation failed: working_directory '${dir}' does not exist`);
    return fail(`Validation failed: working_directory '${dir}' is not accessible (${e?.code ?? e})`);
  }
  const input: PhaseInput = {
    working_directory: dir,
    changed_files: raw.changed_files,
    max_retries: raw.max_retries ?? INPUT_SCHEMA.properties.max_retries.default,
    skip_build: raw.skip_build ?? false,
    skip_tests: raw.skip_tests ?? false,
  };
  if (raw.language !== undefined) input.language = ALIASES[raw.language];
  for (const k of ['format_command', 'lint_command', 'build_command', 'test_command'] as const) {
    if (raw[k] !== undefined) input[k] = raw[k];
  }
  return { ok: true, input };
}

function fail(issue: string): InputResult {
  return { ok: false, issues: [issue] };
}

/** Parses the raw text (stdin or `--input FILE`): not JSON is an input problem reported like any other. */
export function parseInputText(
  text: string,
  origin: string,
): { ok: true; data: unknown } | { ok: false; issues: string[] } {
  if (text.trim() === '')
    return { ok: false, issues: [`Validation failed: no input on ${origin} (expected a JSON object)`] };
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch (e) {
    return { ok: false, issues: [`Validation failed: ${origin} is not valid JSON: ${(e as Error).message}`] };
  }
}
