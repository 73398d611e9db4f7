/**
 * A directory validator's own test cases: the files under its `tests/` folder. Two kinds:
 * - an annotated file: judged as written by the agent; each `avp:expect RULE[, RULE]` (inside any comment) names
 *   a rule that must be flagged; a file with no annotation must pass. `avp:path P` says which project path it stands
 *   for (default: its path under `tests/`). The annotations are cut from the text the validator sees, so a judge is
 *   never told the answer.
 * - a case file (`*.case.yaml`, `*.case.yml`, `*.case.json`): an event that is not a file (a shell command, a prompt,
 *   a Stop over several files), with its expected verdict.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { AvpError } from '../errors.ts';

/** What a case expects: a pass, or a failure flagging every rule named (`*`: any rule). */
export type Expectation = { pass: true } | { rules: string[] };

export interface CaseFile {
  path: string;
  content: string;
  /** Set: the file existed with this content (an Edit); absent: a new file (a Write). */
  before?: string;
}

export interface TestCase {
  /** The case's path under `tests/` (its name in reports). */
  name: string;
  /** Absolute path of the case's file. */
  file: string;
  /** The trigger; absent: the validator's own. */
  event?: string;
  tool?: string;
  command?: string;
  prompt?: string;
  lastMessage?: string;
  /** The files the event writes (a Write/Edit: one; a Stop: the turn's files). */
  files: CaseFile[];
  expect: Expectation;
  /** An annotated file: the lines each expected rule must be flagged on (checked when the validator names lines). */
  lines?: Record<string, number[]>;
  /** Why the case file could not be read: the case fails with this (the other cases still run). */
  invalid?: string;
}

export const CASE_FILE = /\.case\.(ya?ml|json)$/;
const EXPECT = /avp:expect[ \t]+([\w.\-/*:]+(?:[ \t]*,[ \t]*[\w.\-/*:]+)*)/g;
const PATH = /avp:path[ \t]+(\S+)/;
const KEYS = ['event', 'tool', 'command', 'prompt', 'lastMessage', 'path', 'content', 'before', 'files', 'expect'];

/** The cases under `dir` (a validator's `tests/`), in name order; a malformed case is an error naming its file. */
export function readCases(dir: string): TestCase[] {
  const out: TestCase[] = [];
  const visit = (d: string, depth: number) => {
    if (depth > 8) return;
    for (const name of readdirSync(d).sort()) {
      if (name.startsWith('.')) continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) visit(p, depth + 1);
      else out.push(readCase(p, relative(dir, p).split(sep).join('/')));
    }
  };
  visit(dir, 0);
  return out;
}

function readCase(file: string, name: string): TestCase {
  const text = readFileSync(file, 'utf8');
  try {
    return CASE_FILE.test(name) ? caseFile(file, name, text) : annotatedFile(file, name, text);
  } catch (e) {
    if (!(e instanceof AvpError)) throw e;
    return { name, file, files: [], expect: { pass: true }, invalid: `${e.message} (fix: ${e.fix})` };
  }
}

/** An annotated file: the rules its `avp:expect` comments name, and its text without the annotations. */
export function annotatedFile(file: string, name: string, text: string): TestCase {
  const rules: string[] = [];
  const lines: Record<string, number[]> = {};
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(EXPECT))
      for (const r of m[1]!.split(',').map((x) => x.trim())) {
        rules.push(r);
        (lines[r] ??= []).push(i + 1);
      }
  });
  const path = PATH.exec(text)?.[1] ?? name;
  const content = text.replace(EXPECT, '').replace(new RegExp(PATH.source, 'g'), '');
  return {
    name,
    file,
    files: [{ path, content }],
    expect: rules.length ? { rules: [...new Set(rules)] } : { pass: true },
    lines,
  };
}

function bad(file: string, message: string, fix: string): never {
  throw new AvpError('test-case', `${file}: ${message}`, { fix });
}

function str(file: string, v: unknown, key: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string')
    bad(file, `\`${key}\` must be a string`, `write ${key}: "…" (a YAML block \`|\` for lines)`);
  return v;
}

function expectation(file: string, v: unknown): Expectation {
  if (v === 'pass') return { pass: true };
  if (v === 'fail') return { rules: ['*'] };
  const list = typeof v === 'string' ? [v] : v;
  if (Array.isArray(list) && list.length && list.every((r) => typeof r === 'string' && r.trim()))
    return { rules: list.map((r: string) => r.trim()) };
  return bad(file, '`expect` must be pass, fail, or the rule ids that must be flagged', 'e.g. expect: [rm-root]');
}

/** A case file: one event (YAML or JSON) and what the validator must answer. */
export function caseFile(file: string, name: string, text: string): TestCase {
  let data: unknown;
  try {
    data = name.endsWith('.json') ? JSON.parse(text) : Bun.YAML.parse(text);
  } catch (e) {
    bad(file, `not valid ${name.endsWith('.json') ? 'JSON' : 'YAML'}: ${(e as Error).message}`, 'fix the syntax');
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    bad(file, 'a case file is one mapping', 'write keys such as event, command, expect');
  const d = data as Record<string, unknown>;
  for (const k of Object.keys(d))
    if (!KEYS.includes(k)) bad(file, `unknown key \`${k}\``, `use only: ${KEYS.join(', ')}`);
  if (d.expect === undefined) bad(file, 'no `expect`', 'add expect: pass, expect: fail, or expect: [rule-id]');
  const files: CaseFile[] = [];
  const path = str(file, d.path, 'path');
  const content = str(file, d.content, 'content');
  const before = str(file, d.before, 'before');
  if (path !== undefined || content !== undefined)
    files.push({
      path: path ?? name.replace(CASE_FILE, ''),
      content: content ?? '',
      ...(before !== undefined ? { before } : {}),
    });
  if (d.files !== undefined) {
    if (!Array.isArray(d.files)) bad(file, '`files` must be a list', 'files: [{ path: src/a.ts, content: "…" }]');
    for (const f of d.files as Array<Record<string, unknown>>) {
      const p = str(file, f?.path, 'files[].path');
      if (!p) bad(file, 'each of `files` needs a path', 'files: [{ path: src/a.ts, content: "…" }]');
      const b = str(file, f.before, 'files[].before');
      files.push({
        path: p,
        content: str(file, f.content, 'files[].content') ?? '',
        ...(b !== undefined ? { before: b } : {}),
      });
    }
  }
  const c: TestCase = { name, file, files, expect: expectation(file, d.expect) };
  for (const k of ['event', 'tool', 'command', 'prompt', 'lastMessage'] as const) {
    const v = str(file, d[k], k);
    if (v !== undefined) c[k] = v;
  }
  if (c.command !== undefined && c.tool === undefined) c.tool = 'Bash';
  return c;
}
