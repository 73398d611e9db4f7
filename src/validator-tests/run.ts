/**
 * `avp test`: every case of a validator's `tests/` through the path an agent's hook takes — match, judge (the
 * script, or the configured LLM judge), aggregation — and compared with what the case expects. A case no validator
 * matches fails; an LLM case is asked `repeat` times and each verdict counted, since a model is not deterministic.
 */
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AvpConfig } from '../config/types.ts';
import { avpHome } from '../paths.ts';
import { runValidators } from '../runner/run.ts';
import type { ValidatorRun } from '../runner/types.ts';
import { matchValidators } from '../validator/match.ts';
import type { Validator } from '../validator/types.ts';
import { readCases, type Expectation, type TestCase } from './cases.ts';
import { caseEvent } from './event.ts';

/** One answer of the validator to a case: `flagged` rule ids (`*` for a failure naming none), or an error. */
export interface Answer {
  flagged: string[];
  /** The lines each rule was flagged on, where the validator named one. */
  at?: Record<string, number[]>;
  error?: string;
}

export interface CaseResult {
  case: string;
  expect: Expectation;
  answers: Answer[];
  passed: boolean;
  /** Expected rules not flagged (in any answer), and rules flagged that the case did not expect. */
  missed: string[];
  falseAlarms: string[];
  /** How many answers gave the most frequent verdict (equals `answers.length` when the judge was consistent). */
  agreement: number;
  /** Why the case could not run: no validator matched, or the case file is malformed. */
  problem?: string;
}

export interface ValidatorTests {
  validator: string;
  dir: string;
  /** `script` or `llm`: only script cases are deterministic (`avp publish` runs those). */
  kind: 'script' | 'llm';
  cases: CaseResult[];
  /** The folder has no `tests/` (or an empty one). */
  noTests?: boolean;
  /** Its cases were not run (`scriptOnly` and an LLM validator). */
  notRun?: boolean;
}

export interface TestOptions {
  config: AvpConfig;
  env: NodeJS.ProcessEnv;
  repeat: number;
  scriptOnly?: boolean;
}

/** The directory validators among `validators`, one group per folder (a RuleSet's rules together). */
export function groupByDir(validators: Validator[]): Map<string, Validator[]> {
  const groups = new Map<string, Validator[]>();
  for (const v of validators) {
    const key = v.dir ?? v.path;
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  return groups;
}

function answerOf(runs: ValidatorRun[]): Answer {
  const errors = runs.filter((r) => r.status === 'error');
  if (errors.length)
    return { flagged: [], error: errors.map((r) => `${r.id}: ${r.error?.cause ?? 'error'}`).join('; ') };
  const flagged = new Set<string>();
  const at: Record<string, number[]> = {};
  for (const r of runs) {
    if (r.status !== 'failed') continue;
    // A RuleSet's rule is the rule flagged (a model names its violations freely); else the violations' rule ids.
    const ruleset = r.id !== r.name ? r.id.slice(r.name.length + 1) : undefined;
    for (const v of r.verdict?.violations?.length ? r.verdict.violations : [{ rule: '*', line: undefined }]) {
      const rule = ruleset ?? (v.rule || '*');
      flagged.add(rule);
      if (typeof v.line === 'number') (at[rule] ??= []).push(v.line);
    }
  }
  return { flagged: [...flagged].sort(), ...(Object.keys(at).length ? { at } : {}) };
}

const key = (a: Answer) => (a.error ? `error` : a.flagged.join(','));

/** Compares the answers with the expectation: every answer must be right for the case to pass. */
export function judgeCase(c: TestCase, answers: Answer[], problem?: string): CaseResult {
  const expected = 'rules' in c.expect ? c.expect.rules : [];
  const missed = new Set<string>();
  const falseAlarms = new Set<string>();
  for (const a of answers) {
    if (a.error) continue;
    for (const r of expected) if (r === '*' ? !a.flagged.length : !a.flagged.includes(r)) missed.add(r);
    if (!expected.includes('*')) for (const r of a.flagged) if (!expected.includes(r)) falseAlarms.add(r);
    // An annotated line must be flagged, and a line flagged must be annotated, when the validator names lines.
    for (const [r, want] of Object.entries(c.lines ?? {})) {
      const got = a.at?.[r];
      if (r === '*' || !got?.length) continue;
      for (const l of want) if (!got.includes(l)) missed.add(`${r} (line ${l})`);
      for (const l of got) if (!want.includes(l)) falseAlarms.add(`${r} (line ${l})`);
    }
  }
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(key(a), (counts.get(key(a)) ?? 0) + 1);
  const errored = answers.find((a) => a.error)?.error;
  const why = problem ?? (errored ? `the validator could not be evaluated: ${errored}` : undefined);
  return {
    case: c.name,
    expect: c.expect,
    answers,
    passed: !why && !missed.size && !falseAlarms.size,
    missed: [...missed],
    falseAlarms: [...falseAlarms],
    agreement: Math.max(0, ...counts.values()),
    ...(why ? { problem: why } : {}),
  };
}

/** Runs the cases of one directory validator (all rules of a RuleSet) `opts.repeat` times each. */
export async function testValidator(dir: string, group: Validator[], opts: TestOptions): Promise<ValidatorTests> {
  const first = group[0]!;
  const kind = group.every((v) => v.spec.script !== undefined) ? 'script' : 'llm';
  const out: ValidatorTests = { validator: first.name, dir, kind, cases: [] };
  const testsDir = join(dir, 'tests');
  if (!first.dir || !existsSync(testsDir)) return { ...out, noTests: true };
  if (opts.scriptOnly && kind === 'llm') return { ...out, notRun: true };
  // A project folder of the test's own, stable per validator so that `--cache` can find earlier verdicts; outside
  // avp's home, whose `.avp/` a validator may rightly treat as protected.
  const id = createHash('sha256')
    .update(`${avpHome(opts.env)}\0${dir}`)
    .digest('hex')
    .slice(0, 16);
  const root = join(realpathSync(tmpdir()), `avp-test-${id}`, 'project');
  try {
    for (const c of readCases(testsDir)) {
      if (c.invalid) {
        out.cases.push(judgeCase(c, [], c.invalid));
        continue;
      }
      const event = await caseEvent(c, first, root);
      const matched = matchValidators(group, event);
      if (!matched.length) {
        const what = [event.event, event.tool, c.files[0]?.path].filter(Boolean).join(' ');
        out.cases.push(judgeCase(c, [], `no validator matched the case (${what}): check its path, tool or event`));
        continue;
      }
      const answers: Answer[] = [];
      for (let i = 0; i < opts.repeat; i++)
        answers.push(answerOf(await runValidators(matched, [], event, opts.config)));
      out.cases.push(judgeCase(c, answers));
    }
  } finally {
    rmSync(dirname(root), { recursive: true, force: true });
  }
  if (!out.cases.length) out.noTests = true;
  return out;
}
