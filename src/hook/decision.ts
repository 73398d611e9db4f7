/**
 * Report → the engine's one neutral decision (src/agents/types.ts `Decision`): refuse (deny before a tool runs, block
 * after the fact or at a stop), warn, or pass; the reason for the model, the message for the user, extra context,
 * and AVP's response fields (`passed`, `violations`, `summary`, `errors`). What the agent can do on the event comes
 * from its adapter (`EventAbility`); each adapter then words the decision in its own protocol.
 *
 * Where each outcome goes:
 * - ERROR: refused where the agent can refuse on this event (its ability says deny or block); elsewhere (SessionStart,
 *   Notification …) a message for the user and, where accepted, context for the model, worded as problems found,
 *   never as "avp blocked".
 * - WARNED: a message for the user + context for the model where the event accepts it; never refused.
 * - PASSED: the AVP fields only.
 */
import type { Decision, EventAbility } from '../agents/types.ts';
import type { HookEvent } from '../protocol/event.ts';
import {
  clip,
  fairShare,
  killSwitchShort,
  MAX_SNIPPET,
  type Mode,
  reportText,
  toolLabel,
  type ShownViolation,
  violationGroups,
} from '../runner/report-text.ts';
import type { Report, ValidatorRun } from '../runner/types.ts';

export { KILL_SWITCH, type ShownViolation } from '../runner/report-text.ts';

/** An event the adapter says nothing about: the agent can show the user a message, nothing more. */
const NOTHING: EventAbility = { stop: false, context: false };

/** The `violations` array's bound: a runaway judge must not turn the answer into megabytes (all are in the log). */
const MAX_VIOLATIONS = 200;
/** A validator error's cause or fix in the `errors` array. */
const MAX_ERROR_FIELD = 600;

export interface RenderExtra {
  systemMessage?: string;
  noBlock?: boolean;
  /** Where the full report will be written (project-relative), shown when the answer had to summarise. */
  fullReport?: string;
  /** Findings shown in full on an earlier Stop round for the same content: listed briefly as "still failing". */
  repeated?: (v: ShownViolation) => boolean;
  /** A managed policy forbids the kill switch: the answer must not offer it. */
  managed?: boolean;
}

export interface Decided {
  decision: Decision;
  /** The full, unclipped report text, set when the answer summarised it: the caller writes it to `fullReport`. */
  fullReport?: string;
}

/** AVP's own response fields for a report. */
function avpFields(report: Report, runs: ValidatorRun[]): Record<string, unknown> {
  const groups = violationGroups(runs);
  // Round-robin within the bound, so every failing validator is in the array, not just the first noisy one.
  const counts = fairShare(groups, Infinity, () => 1, MAX_VIOLATIONS);
  const listed = groups.flatMap((g, i) => g.slice(0, counts[i]));
  const total = groups.reduce((n, g) => n + g.length, 0);
  const errors = runs.filter((r) => r.status === 'error');
  return {
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
}

/** The decision on a report, given what the agent can do on this event. */
export function decide(
  event: HookEvent,
  report: Report,
  runs: ValidatorRun[],
  ability: EventAbility = NOTHING,
  extra: RenderExtra = {},
): Decided {
  const name = event.event;
  const mode: Mode =
    report.outcome !== 'ERROR' ? 'warning' : extra.noBlock ? 'released' : ability.stop ? 'blocking' : 'cannot-block';
  const blocking = mode === 'blocking';
  const avp = avpFields(report, runs);
  if (report.outcome === 'PASSED') {
    return { decision: { kind: 'pass', avp, ...(extra.systemMessage ? { userMessage: extra.systemMessage } : {}) } };
  }
  const text = reportText(event, report, runs, mode, extra.fullReport, extra.repeated, extra.managed);
  const reason = text.text;
  if (text.summarised && extra.fullReport) avp.fullReport = extra.fullReport;
  const setup = runs.some((r) => r.status === 'error' && r.error?.setup)
    ? ' avp is not set up for some validators: run `avp doctor`.'
    : '';
  const tool = toolLabel(event);
  const user = [
    extra.systemMessage,
    blocking
      ? `avp blocked ${name}${tool ? ` ${tool}` : ''}: ${report.summary}.${setup} ${killSwitchShort(extra.managed)}`
      : reason,
  ]
    .filter(Boolean)
    .join('\n');
  const decision: Decision = {
    kind: blocking ? (ability.stop as 'deny' | 'block') : 'warn',
    reason,
    userMessage: user,
    avp,
  };
  // The model must see warnings (and problems the agent cannot refuse on this event) without being stopped; where a
  // refusal alone does not reach the model, the reason goes in the context too.
  if (ability.context && (!blocking || ability.contextOnBlock)) decision.context = reason;
  return text.summarised ? { decision, fullReport: text.full } : { decision };
}

/** A plain pass: nothing matched, or nothing is installed (`{}` on Claude Code). */
export const PASS_DECISION: Decision = { kind: 'pass', avp: {} };

/** The control plane's refusal (a change to avp's own files), as a decision. */
export function refusal(reason: string, summary: string): Decision {
  return { kind: 'deny', reason, userMessage: reason, avp: { passed: false, violations: [], summary } };
}
