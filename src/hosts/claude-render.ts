/**
 * Report → Claude Code hook output (seed 002 + the real protocol). Always exit 0 with one JSON document: Claude Code
 * reads the hook-control fields (`decision`, `reason`, `hookSpecificOutput`, `systemMessage`) and ignores the AVP
 * fields riding along (`passed`, `violations`, `summary`, `errors`). Exit 2 is reserved for unreadable input.
 *
 * Where each outcome goes, per event:
 * - ERROR: PreToolUse → `permissionDecision: "deny"`; PermissionRequest → `decision.behavior: "deny"`; PostToolUse,
 *   PostToolUseFailure, Stop, SubagentStop, UserPromptSubmit → `decision: "block"`; events Claude cannot block
 *   (SessionStart, Notification …) → `systemMessage` for the user and, where accepted, `additionalContext` for the
 *   model, worded as problems found, never as "avp blocked".
 * - WARNED: `systemMessage` (user) + `additionalContext` (model) where the event accepts it; never blocks.
 * - PASSED: the AVP fields only.
 */
import type { Report, ValidatorRun } from '../engine/types.ts';
import type { HookEvent } from '../event.ts';
import {
  clip,
  fairShare,
  MAX_SNIPPET,
  type Mode,
  reportText,
  type ShownViolation,
  violationGroups,
} from './report-text.ts';

export { KILL_SWITCH, type ShownViolation } from './report-text.ts';

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
/** Events avp can stop: the two permission events through their own deny, the others through `decision`. */
const canBlock = (name: string) => name === 'PreToolUse' || name === 'PermissionRequest' || BLOCK_EVENTS.has(name);

/** The `violations` array's bound: a runaway judge must not turn the answer into megabytes (all are in the log). */
const MAX_VIOLATIONS = 200;
/** A validator error's cause or fix in the `errors` array. */
const MAX_ERROR_FIELD = 600;

/** Violations people must see (error + warn validators), each tagged with its validator. */
export function shownViolations(runs: ValidatorRun[]): ShownViolation[] {
  return violationGroups(runs).flat();
}

export interface RenderExtra {
  systemMessage?: string;
  noBlock?: boolean;
  /** Where the full report will be written (project-relative), shown when the answer had to summarise. */
  fullReport?: string;
  /** Findings shown in full on an earlier Stop round for the same content: listed briefly as "still failing". */
  repeated?: (v: ShownViolation) => boolean;
}

export interface Rendered {
  stdout: string;
  exitCode: number;
  /** The full, unclipped report text, set when the answer summarised it: the caller writes it to `fullReport`. */
  fullReport?: string;
}

/** One JSON document for Claude Code and the exit code (always 0: exit 2 would discard the JSON). */
export function renderClaude(
  event: HookEvent,
  report: Report,
  runs: ValidatorRun[],
  extra: RenderExtra = {},
): Rendered {
  const name = event.event;
  const mode: Mode =
    report.outcome !== 'ERROR' ? 'warning' : extra.noBlock ? 'released' : canBlock(name) ? 'blocking' : 'cannot-block';
  const blocking = mode === 'blocking';
  const groups = violationGroups(runs);
  // Round-robin within the bound, so every failing validator is in the array, not just the first noisy one.
  const counts = fairShare(groups, Infinity, () => 1, MAX_VIOLATIONS);
  const listed = groups.flatMap((g, i) => g.slice(0, counts[i]));
  const total = groups.reduce((n, g) => n + g.length, 0);
  const errors = runs.filter((r) => r.status === 'error');
  const avp: Record<string, unknown> = {
    passed: report.outcome !== 'ERROR' && !report.validators.some((v) => !v.passed),
    violations: listed.map((v) =>
      v.snippet && v.snippet.length > MAX_SNIPPET ? { ...v, snippet: clip(v.snippet, MAX_SNIPPET) } : v,
    ),
    summary: report.summary,
    ...(errors.length
      ? {
          errors: errors.map((r) => ({
            validator: r.id,
            severity: r.severity,
            cause: clip(r.error?.cause ?? 'unknown error', MAX_ERROR_FIELD),
            // A setup problem's long fix is said once, in the reason; here it points there.
            fix: r.error?.setup
              ? 'avp is not set up for this validator: see the reason, or run `avp doctor`'
              : clip(r.error?.fix ?? '', MAX_ERROR_FIELD),
            ...(r.error?.code ? { code: r.error.code } : {}),
            ...(r.error?.setup ? { setup: true } : {}),
          })),
        }
      : {}),
    ...(total > listed.length ? { omittedViolations: total - listed.length } : {}),
  };
  if (report.outcome === 'PASSED')
    return done({ ...avp, ...(extra.systemMessage ? { systemMessage: extra.systemMessage } : {}) });

  const text = reportText(event, report, runs, mode, extra.fullReport, extra.repeated);
  const reason = text.text;
  if (text.summarised && extra.fullReport) avp.fullReport = extra.fullReport;
  const out: Record<string, unknown> = {};
  const setup = errors.some((r) => r.error?.setup) ? ' avp is not set up for some validators: run `avp doctor`.' : '';
  const user = [
    extra.systemMessage,
    blocking
      ? `avp blocked ${name}${event.tool ? ` ${event.tool}` : ''}: ${report.summary}.${setup} AVP_DISABLE=1 turns avp off.`
      : reason,
  ]
    .filter(Boolean)
    .join('\n');
  if (blocking && name === 'PreToolUse') {
    out.hookSpecificOutput = { hookEventName: name, permissionDecision: 'deny', permissionDecisionReason: reason };
  } else if (blocking && name === 'PermissionRequest') {
    out.hookSpecificOutput = { hookEventName: name, decision: { behavior: 'deny', message: reason } };
  } else {
    if (blocking) out.decision = 'block';
    // The model must see warnings (and problems Claude cannot block on this event) without being stopped.
    if (CONTEXT_EVENTS.has(name) && (!blocking || name === 'PostToolUseFailure')) {
      out.hookSpecificOutput = { hookEventName: name, additionalContext: reason };
    }
  }
  out.reason = reason;
  out.systemMessage = user;
  const rendered = done({ ...out, ...avp });
  return text.summarised ? { ...rendered, fullReport: text.full } : rendered;
}

function done(doc: Record<string, unknown>): Rendered {
  return { stdout: `${JSON.stringify(doc)}\n`, exitCode: 0 };
}
