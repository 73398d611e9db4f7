/**
 * Report → Claude Code hook output (seed 002 + the real protocol). Always exit 0 with one JSON document: Claude Code
 * reads the hook-control fields (`decision`, `reason`, `hookSpecificOutput`, `systemMessage`) and ignores the AVP
 * fields riding along (`passed`, `violations`, `summary`, `errors`). Exit 2 is reserved for unreadable input.
 *
 * Where each outcome goes, per event:
 * - ERROR: PreToolUse → `permissionDecision: "deny"`; PermissionRequest → `decision.behavior: "deny"`; PostToolUse,
 *   PostToolUseFailure, Stop, SubagentStop, UserPromptSubmit → `decision: "block"`; events Claude cannot block
 *   (SessionStart, Notification …) → `systemMessage` for the user and, where accepted, `additionalContext` for the
 * model.
 * - WARNED: `systemMessage` (user) + `additionalContext` (model) where the event accepts it; never blocks.
 * - PASSED: the AVP fields only.
 */
import type { Report, ValidatorRun } from '../engine/types.ts';
import type { HookEvent } from '../event.ts';
import type { Violation } from '../judges/types.ts';

/**
 * Events where avp puts text in the model's context with `additionalContext` (Claude Code 2.1's output schema accepts
 * it on these). Not on Stop/SubagentStop (accepted, but observed with the real CLI to start a new model turn — a
 * released or warned Stop would loop) nor on Notification (fired while the agent waits; same risk).
 */
const CONTEXT_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'SessionStart',
  'Setup',
  'SubagentStart',
]);
/** Events on which `decision: "block"` makes Claude Code act on `reason`. */
const BLOCK_EVENTS = new Set(['PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'UserPromptSubmit']);

/** Named in every block so people always know how to get out of a broken setup. */
export const KILL_SWITCH =
  'To turn avp off: AVP_DISABLE=1 (or "disabled": true in avp.config.json); to skip one validator, add its name to "disabledValidators".';

const MAX_REASON = 24_000;
const MAX_SNIPPET = 400;
const MAX_VIOLATIONS = 200;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export interface ShownViolation extends Violation {
  validator: string;
  validatorSeverity: string;
}

/** Violations people must see (error + warn validators), each tagged with its validator. */
export function shownViolations(runs: ValidatorRun[]): ShownViolation[] {
  return runs.flatMap((r) =>
    r.status === 'failed' && r.severity !== 'info'
      ? (r.verdict?.violations.length
          ? r.verdict.violations
          : [{ rule: r.name, message: r.verdict?.summary || 'the validator failed' }]
        ).map((v) => ({ ...v, validator: r.id, validatorSeverity: r.severity }))
      : [],
  );
}

function describeViolation(v: ShownViolation): string {
  const where = v.file
    ? `${v.file}${v.line ? `:${v.line}` : ''}${v.lineUnverified ? ' (line not in the change)' : ''}`
    : '';
  const what = v.message || (v.rule && v.rule !== v.validator ? v.rule : '');
  let text = `- [${v.validator}${v.validatorSeverity === 'warn' ? ', warning' : ''}] ${[where, what].filter(Boolean).join(': ') || 'violation'}`;
  if (v.rule && v.rule !== v.validator && v.message) text += ` (rule ${v.rule})`;
  if (v.snippet) text += `\n    code: ${clip(v.snippet.trim().replace(/\s*\n\s*/g, ' ⏎ '), MAX_SNIPPET)}`;
  if (v.suggestion) text += `\n    fix: ${v.suggestion}`;
  return text;
}

/** The full human/model-readable text: every violation and every validator error, then the kill switch. */
export function reasonText(event: HookEvent, report: Report, runs: ValidatorRun[], blocking: boolean): string {
  const on = `${event.event}${event.tool ? ` ${event.tool}` : ''}`;
  const head = blocking
    ? `avp blocked ${on}: ${report.summary}.`
    : `avp ${report.outcome === 'ERROR' ? 'found blocking problems (not blocking this time)' : 'warnings'} on ${on}: ${report.summary}.`;
  const lines = [head];
  const violations = shownViolations(runs);
  if (violations.length) {
    lines.push('', 'Violations:', ...violations.slice(0, MAX_VIOLATIONS).map(describeViolation));
    if (violations.length > MAX_VIOLATIONS)
      lines.push(`… and ${violations.length - MAX_VIOLATIONS} more (see .avp/logs/)`);
  }
  const errors = runs.filter((r) => r.status === 'error');
  if (errors.length) {
    lines.push('', 'Validator errors (avp could not evaluate these validators — not findings in your code):');
    for (const r of errors)
      lines.push(
        `- [${r.id}${r.severity === 'error' ? '' : `, ${r.severity}`}] ${r.error?.cause ?? 'unknown error'}\n    fix: ${r.error?.fix ?? ''}`,
      );
  }
  if (blocking)
    lines.push(
      '',
      event.event === 'PreToolUse'
        ? 'Change the tool call so that it satisfies these validators.'
        : 'Fix every violation listed above, then continue.',
    );
  lines.push(KILL_SWITCH);
  return clip(lines.join('\n'), MAX_REASON);
}

/** One JSON document for Claude Code and the exit code (always 0: exit 2 would discard the JSON). */
export function renderClaude(
  event: HookEvent,
  report: Report,
  runs: ValidatorRun[],
  extra: { systemMessage?: string; noBlock?: boolean } = {},
): { stdout: string; exitCode: number } {
  const name = event.event;
  const blocking = report.outcome === 'ERROR' && !extra.noBlock;
  const avp = {
    passed: report.outcome !== 'ERROR' && !report.validators.some((v) => !v.passed),
    // Bounded: a runaway judge must not turn the hook's answer into megabytes (the full list is in the run log).
    violations: shownViolations(runs)
      .slice(0, MAX_VIOLATIONS)
      .map((v) => (v.snippet && v.snippet.length > MAX_SNIPPET ? { ...v, snippet: clip(v.snippet, MAX_SNIPPET) } : v)),
    summary: report.summary,
    ...(runs.some((r) => r.status === 'error')
      ? {
          errors: runs
            .filter((r) => r.status === 'error')
            .map((r) => ({ validator: r.id, severity: r.severity, ...r.error })),
        }
      : {}),
  };
  if (report.outcome === 'PASSED')
    return done({ ...avp, ...(extra.systemMessage ? { systemMessage: extra.systemMessage } : {}) });

  const reason = reasonText(event, report, runs, blocking);
  const out: Record<string, unknown> = {};
  const user = [
    extra.systemMessage,
    blocking
      ? `avp blocked ${name}${event.tool ? ` ${event.tool}` : ''}: ${report.summary}. AVP_DISABLE=1 turns avp off.`
      : reason,
  ]
    .filter(Boolean)
    .join('\n');
  if (blocking && name === 'PreToolUse') {
    out.hookSpecificOutput = { hookEventName: name, permissionDecision: 'deny', permissionDecisionReason: reason };
  } else if (blocking && name === 'PermissionRequest') {
    out.hookSpecificOutput = { hookEventName: name, decision: { behavior: 'deny', message: reason } };
  } else {
    if (blocking && BLOCK_EVENTS.has(name)) out.decision = 'block';
    // The model must see warnings (and blocks Claude cannot enforce on this event) without being stopped.
    if (CONTEXT_EVENTS.has(name) && (!blocking || !BLOCK_EVENTS.has(name) || name === 'PostToolUseFailure')) {
      out.hookSpecificOutput = { hookEventName: name, additionalContext: reason };
    }
  }
  out.reason = reason;
  out.systemMessage = user;
  return done({ ...out, ...avp });
}

function done(doc: Record<string, unknown>): { stdout: string; exitCode: number } {
  return { stdout: `${JSON.stringify(doc)}\n`, exitCode: 0 };
}
