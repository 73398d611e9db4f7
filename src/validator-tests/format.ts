/**
 * The reports of `avp test`: per validator and per rule, how many cases, passed, missed (an expected rule not
 * flagged) and false alarms (a rule flagged that the case did not expect); as text, JSON, or JUnit XML for CI.
 */
import { attr, xml } from '../check/formats/junit.ts';
import type { CaseResult, ValidatorTests } from './run.ts';

export interface RuleRow {
  rule: string;
  cases: number;
  passed: number;
  missed: number;
  falseAlarms: number;
}

/** `(must pass)`: the cases that expect no finding at all. */
export const PASS_ROW = '(must pass)';

export function ruleRows(cases: CaseResult[]): RuleRow[] {
  const rows = new Map<string, RuleRow>();
  const row = (rule: string) => {
    if (!rows.has(rule)) rows.set(rule, { rule, cases: 0, passed: 0, missed: 0, falseAlarms: 0 });
    return rows.get(rule)!;
  };
  const ruleOf = (s: string) => s.replace(/ \(line \d+\)$/, '');
  for (const c of cases) {
    const expected = 'rules' in c.expect ? c.expect.rules : [PASS_ROW];
    const missed = new Set(c.missed.map(ruleOf));
    for (const r of expected) {
      const x = row(r);
      x.cases++;
      if (r !== PASS_ROW && (missed.has(r) || c.problem)) x.missed++;
      if (r === PASS_ROW ? c.passed : !missed.has(r) && !c.problem) x.passed++;
    }
    for (const r of new Set(c.falseAlarms.map(ruleOf))) row(r).falseAlarms++;
  }
  return [...rows.values()].sort((a, b) =>
    a.rule === PASS_ROW ? 1 : b.rule === PASS_ROW ? -1 : a.rule < b.rule ? -1 : 1,
  );
}

export function failed(results: ValidatorTests[]): CaseResult[] {
  return results.flatMap((r) => r.cases.filter((c) => !c.passed));
}

const count = (n: number) => `${n} case${n === 1 ? '' : 's'}`;

function caseLine(c: CaseResult): string {
  const parts: string[] = [];
  if (c.problem) parts.push(c.problem);
  if (c.missed.length) parts.push(`missed ${c.missed.join(', ')}`);
  if (c.falseAlarms.length) parts.push(`false alarm ${c.falseAlarms.join(', ')}`);
  if (c.answers.length > 1) parts.push(`same verdict ${c.agreement}/${c.answers.length}`);
  return `  ${c.passed ? 'ok  ' : 'FAIL'} ${c.case}${parts.length ? `: ${parts.join('; ')}` : ''}`;
}

/** The text report (stdout). */
export function renderText(results: ValidatorTests[], repeat: number): string {
  const out: string[] = [];
  const none = results.filter((r) => r.noTests).map((r) => r.validator);
  for (const r of results.filter((x) => !x.noTests)) {
    const bad = r.cases.filter((c) => !c.passed).length;
    out.push(`${r.validator} (${r.kind}): ${count(r.cases.length)}, ${bad ? `${bad} failed` : 'all pass'}`);
    const rows = ruleRows(r.cases);
    const w = Math.max(12, ...rows.map((x) => x.rule.length));
    out.push(`  ${'rule'.padEnd(w)}  cases  passed  missed  false alarms`);
    for (const x of rows)
      out.push(
        `  ${x.rule.padEnd(w)}  ${String(x.cases).padStart(5)}  ${String(x.passed).padStart(6)}  ` +
          `${String(x.missed).padStart(6)}  ${String(x.falseAlarms).padStart(12)}`,
      );
    for (const c of r.cases) if (!c.passed || (repeat > 1 && c.agreement < c.answers.length)) out.push(caseLine(c));
  }
  if (none.length) out.push(`no tests: ${none.join(', ')} (add cases under <validator>/tests/, see docs/testing.md)`);
  const all = results.flatMap((r) => r.cases);
  const bad = failed(results).length;
  out.push(`${count(all.length)}, ${bad ? `${bad} failed` : 'all pass'}`);
  return `${out.join('\n')}\n`;
}

/** The JSON report: every case with its answers, and the per-rule table. */
export function renderJson(results: ValidatorTests[]): string {
  const validators = results.map((r) => ({ ...r, rules: ruleRows(r.cases) }));
  const all = results.flatMap((r) => r.cases);
  const summary = { cases: all.length, passed: all.filter((c) => c.passed).length, failed: failed(results).length };
  return `${JSON.stringify({ ok: summary.failed === 0, ...summary, validators }, null, 2)}\n`;
}

/** JUnit XML: one suite per validator, one test case per case; a wrong verdict is a `<failure>`. */
export function renderJunit(results: ValidatorTests[]): string {
  const suites = results
    .filter((r) => !r.noTests)
    .map((r) => {
      const bad = r.cases.filter((c) => !c.passed).length;
      const cases = r.cases.map((c) => {
        const head = `    <testcase name="${attr(c.case)}" classname="${attr(r.validator)}"`;
        if (c.passed) return `${head}/>`;
        const text = caseLine(c).trim();
        return `${head}>\n      <failure message="${attr(text)}">${xml(text)}</failure>\n    </testcase>`;
      });
      return (
        `  <testsuite name="${attr(r.validator)}" tests="${r.cases.length}" failures="${bad}" errors="0">\n` +
        `${cases.join('\n')}\n  </testsuite>`
      );
    });
  const all = results.flatMap((r) => r.cases);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="avp test" tests="${all.length}" ` +
    `failures="${failed(results).length}">\n${suites.join('\n')}\n</testsuites>\n`
  );
}
