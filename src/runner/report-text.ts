/**
 * The aggregated report as text for the model and the user, within a size budget. Whatever the volume, the text
 * names every validator that failed or could not be evaluated (with counts); when details do not fit, each failing
 * validator gets a fair share of the violations (round-robin, so one noisy validator cannot crowd out the others),
 * long fields are clipped, and the text points to the full report, written to `.avp/logs/reports/` by the hook.
 * Setup problems (no judge configured) are said once, as the user's to fix, not the code's.
 */
import type { Report, RunError, ValidatorRun } from './types.ts';
import type { HookEvent } from '../protocol/event.ts';
import type { Violation } from '../judges/types.ts';
import { isEvent } from '../protocol/trigger.ts';

/** Named in every block so people always know how to get out of a broken setup. */
export const KILL_SWITCH =
  'To turn avp off: AVP_DISABLE=1, or "disabled": true in avp.config.json; to skip one validator, add its name to ' +
  '"disabledValidators" (config changes apply once the user runs `avp accept` in their own terminal).';
/** Under an administrator's policy that forbids the kill switch, naming AVP_DISABLE would send people the wrong way. */
export const MANAGED_SWITCH =
  'avp is required by this machine\'s managed policy: AVP_DISABLE and "disabled" are refused here. To skip a ' +
  'validator the policy does not require, add its name to "disabledValidators" (applies once the user runs ' +
  '`avp accept` in their own terminal); the administrator decides the rest.';

/** The closing line of a block: how to get out, as far as this machine allows. */
export const killSwitchText = (managed?: boolean) => (managed ? MANAGED_SWITCH : KILL_SWITCH);
/** The same in one clause, for the user's one-line message. */
export const killSwitchShort = (managed?: boolean) =>
  managed ? "avp is required by this machine's managed policy." : 'AVP_DISABLE=1 turns avp off.';

/** The text budget (characters). The index of validators and the closing lines are never cut. */
export const MAX_REASON = 24_000;
export const MAX_SNIPPET = 400;
/** A violation's message or suggestion, a validator error's cause or fix, in the budgeted text. */
const MAX_FIELD = 600;
const MAX_NAME = 120;

export const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface ShownViolation extends Violation {
  validator: string;
  validatorSeverity: string;
}

/** Violations people must see (error + warn validators), each tagged with its validator, one list per validator. */
export function violationGroups(runs: ValidatorRun[]): ShownViolation[][] {
  return runs
    .filter((r) => r.status === 'failed' && r.severity !== 'info')
    .map((r) =>
      (r.verdict?.violations.length
        ? r.verdict.violations
        : [{ rule: r.name, message: r.verdict?.summary || 'the validator failed' }]
      ).map((v) => ({ ...v, validator: r.id, validatorSeverity: r.severity })),
    );
}

/**
 * How many violations of each group to show within `budget` (the total of `size(v)`): round-robin, so every group
 * gets its first ones before any group gets more. `maxCount` bounds the number shown in all.
 */
export function fairShare<T>(groups: T[][], budget: number, size: (v: T) => number, maxCount = Infinity): number[] {
  const shown = groups.map(() => 0);
  const stopped = groups.map(() => false);
  let used = 0;
  let count = 0;
  for (let round = 0; ; round++) {
    let progressed = false;
    for (const [i, g] of groups.entries()) {
      if (stopped[i] || round >= g.length) continue;
      const n = size(g[round]!);
      if (used + n > budget || count >= maxCount) {
        stopped[i] = true; // keep each group's shown violations a prefix of its list
        continue;
      }
      used += n;
      count++;
      shown[i]!++;
      progressed = true;
    }
    if (!progressed) return shown;
  }
}

function describeViolation(v: ShownViolation, clipped: boolean): string {
  const cut = (s: string, n: number) => (clipped ? clip(s, n) : s);
  const where = v.file
    ? `${v.file}${v.line ? `:${v.line}` : ''}${v.lineUnverified ? ' (line not in the change)' : ''}`
    : '';
  const what = v.message ? cut(v.message, MAX_FIELD) : v.rule && v.rule !== v.validator ? v.rule : '';
  let text = `- [${v.validator}${v.validatorSeverity === 'warn' ? ', warning' : ''}] ${[where, what].filter(Boolean).join(': ') || 'violation'}`;
  if (v.rule && v.rule !== v.validator && v.message) text += ` (rule ${v.rule})`;
  if (v.snippet) {
    const code = v.snippet.trim().replace(/\s*\n\s*/g, ' ⏎ ');
    text += `\n    code: ${clipped ? clip(code, MAX_SNIPPET) : code}`;
  }
  if (v.suggestion) text += `\n    fix: ${cut(v.suggestion, MAX_FIELD)}`;
  return text;
}

/** A setup error's fix without the per-validator disable hint (said once for all of them). */
function setupFix(error: RunError): string {
  const fix = error.fix.replace(/;\s*to skip this validator add .*$/s, '');
  return /avp doctor/.test(fix) ? fix : `${fix}; \`avp doctor\` shows what avp sees`;
}

/** Most places listed on one "still failing" line; the rest are counted. */
const MAX_STILL = 12;

/** Findings already shown in full, for unchanged content: where they are, briefly. */
function stillLine(vs: ShownViolation[]): string {
  const place = (v: ShownViolation) => {
    const where = v.file ? `${v.file}${v.line ? `:${v.line}` : ''}` : '';
    const what = v.rule && v.rule !== v.validator ? v.rule : v.message ? clip(v.message, 60) : '';
    return [where, what && `(${what})`].filter(Boolean).join(' ') || 'as before';
  };
  const listed = vs.slice(0, MAX_STILL).map(place).join('; ');
  const more = vs.length > MAX_STILL ? `; and ${vs.length - MAX_STILL} more` : '';
  return `- [${vs[0]!.validator}] still failing: ${listed}${more}`;
}

export type Mode = 'blocking' | 'cannot-block' | 'released' | 'warning';

export interface ReportText {
  /** The text for the answer (within the budget, except the index of names). */
  text: string;
  /** Everything, nothing clipped: what the full report file holds. */
  full: string;
  /** True when `text` left something out or clipped it (then the full report must be written). */
  summarised: boolean;
}

/**
 * The tool as every text of one answer names it: the agent's own name for it, and the canonical tool it was judged as
 * when that differs (Codex's `apply_patch` through Bash is judged as a Write: "Bash (judged as Write)").
 */
export function toolLabel(event: HookEvent): string | undefined {
  const own = event.agentTool ?? event.tool;
  return own && event.tool && own !== event.tool ? `${own} (judged as ${event.tool})` : own;
}

/**
 * The report as text. `mode`: the event is blocked, has blocking problems it cannot be blocked for (SessionStart …),
 * was released by the Stop loop guard, or only warns. `fullReport` is where the full text will be (shown when
 * something had to be summarised).
 */
export function reportText(
  event: HookEvent,
  report: Report,
  runs: ValidatorRun[],
  mode: Mode,
  fullReport = '.avp/logs/reports/',
  repeated?: (v: ShownViolation) => boolean,
  managed?: boolean,
): ReportText {
  const on = `${event.event}${toolLabel(event) ? ` ${toolLabel(event)}` : ''}`;
  const head = {
    blocking: `avp blocked ${on}: ${report.summary}.`,
    'cannot-block': `avp found blocking problems on ${on} (this event cannot be blocked): ${report.summary}.`,
    released: `avp found blocking problems on ${on} (not blocking this time): ${report.summary}.`,
    warning: `avp warnings on ${on}: ${report.summary}.`,
  }[mode];
  const groups = violationGroups(runs);
  // Shown in full on an earlier Stop round, for the same file content: one brief "still failing" line per validator.
  const fresh = groups.map((g) => (repeated ? g.filter((v) => !repeated(v)) : g));
  const still = groups.map((g) => (repeated ? g.filter((v) => repeated(v)) : []));
  const skipped = runs.filter((r) => r.status === 'skipped');
  const errors = runs.filter((r) => r.status === 'error');
  const runtime = errors.filter((r) => !r.error?.setup);
  const setup = errors.filter((r) => r.error?.setup);
  const name = (r: { id: string; severity: string }) =>
    `${clip(r.id, MAX_NAME)}${r.severity === 'error' ? '' : `, ${r.severity}`}`;

  const errorLines = (clipped: boolean) => {
    const cut = (s: string) => (clipped ? clip(s, MAX_FIELD) : s);
    const out: string[] = [];
    if (runtime.length) {
      out.push('', 'Validator errors (avp could not evaluate these validators — not findings in your code):');
      for (const r of runtime)
        out.push(`- [${name(r)}] ${cut(r.error?.cause ?? 'unknown error')}\n    fix: ${cut(r.error?.fix ?? '')}`);
    }
    if (skipped.length) {
      out.push('', 'Not run (the user chose this in avp config — not findings in your code):');
      const reasons = new Map<string, string[]>();
      for (const r of skipped) {
        const why = r.skipped?.reason ?? 'not run';
        reasons.set(why, [...(reasons.get(why) ?? []), name(r)]);
      }
      for (const [why, names] of reasons) out.push(`- ${names.join(', ')}: ${cut(why)}`);
    }
    if (setup.length) {
      out.push('', 'Not evaluated — avp is not set up for these validators (the user must fix this, not the code):');
      for (const r of setup) out.push(`- [${name(r)}] ${clip((r.error?.cause ?? '').split(': ')[0]!, 100)}`);
      for (const cause of new Set(setup.map((r) => r.error?.cause ?? ''))) out.push(`  why: ${cut(cause)}`);
      for (const fix of new Set(setup.map((r) => setupFix(r.error!)))) out.push(`  for the user: ${cut(fix)}`);
    }
    return out;
  };

  const closing: string[] = [];
  if (mode !== 'warning') {
    const lines: string[] = [];
    if (groups.length)
      lines.push(
        isEvent(event, 'PreToolUse')
          ? 'Change the tool call so that it satisfies these validators.'
          : 'Fix every violation listed above, then continue.',
      );
    if (still.some((g) => g.length))
      lines.push(
        'Findings marked "still failing" were shown in full on the previous Stop and the files they are in have not changed since.',
      );
    if (runtime.length)
      lines.push(
        'The validator errors are not findings in your code: do not change the code for them; tell the user (each fix line says what to change).',
      );
    if (setup.length)
      lines.push(
        'This is a configuration problem for the user, not something to fix in the code: tell the user that avp cannot run these validators and that `avp doctor` shows what to set up.',
      );
    if (lines.length) closing.push('', ...lines);
  }
  closing.push(killSwitchText(managed));

  const section = (shown: number[] | undefined, clipped: boolean): string[] => {
    if (!groups.length) return [];
    const out = ['', 'Violations:'];
    for (const [i, g] of fresh.entries()) {
      const n = shown ? shown[i]! : g.length;
      out.push(...g.slice(0, n).map((v) => describeViolation(v, clipped)));
      if (n < g.length)
        out.push(`- [${g[0]!.validator}] … ${plural(g.length - n, 'more violation')} in the full report`);
      if (still[i]!.length) out.push(stillLine(still[i]!));
    }
    return out;
  };

  const full = [head, ...section(undefined, false), ...errorLines(false), ...closing].join('\n');
  const plain = [head, ...section(undefined, true), ...errorLines(true), ...closing].join('\n');
  if (plain === full && full.length <= MAX_REASON) return { text: full, full, summarised: false };

  // Summarised: every failing and erroring validator by name, then as many details as the budget allows.
  const index: string[] = [''];
  if (groups.length)
    index.push(
      `Failed (${groups.length}): ${groups.map((g) => `${clip(g[0]!.validator, MAX_NAME)} (${plural(g.length, 'violation')})`).join(', ')}`,
    );
  if (skipped.length) index.push(`Not run (${skipped.length}): ${skipped.map((r) => clip(r.id, MAX_NAME)).join(', ')}`);
  if (errors.length)
    index.push(`Could not be evaluated (${errors.length}): ${errors.map((r) => clip(r.id, MAX_NAME)).join(', ')}`);
  index.push(`Some details below are shortened or left out; the full report: ${fullReport}`);
  let errorText = errorLines(true);
  const fixed = [head, ...index, ...closing].join('\n').length;
  // Validator errors get up to a third of what is left; past that one short line each (names are in the index).
  if (errorText.join('\n').length > (MAX_REASON - fixed) / 3)
    errorText = ['', 'Validator errors: one line each, causes and fixes in the full report.'].concat(
      errors.map((r) => `- [${name(r)}] ${clip(r.error?.cause ?? '', 100)}`),
    );
  // Room for the "Violations:" header and each group's "… N more" line.
  const overhead = 16 + groups.reduce((n, g) => n + g[0]!.validator.length + 52, 0);
  const budget = MAX_REASON - fixed - errorText.join('\n').length - overhead;
  const shown = fairShare(fresh, budget, (v) => describeViolation(v, true).length + 1);
  const text = [head, ...index, ...section(shown, true), ...errorText, ...closing].join('\n');
  return { text, full, summarised: true };
}
