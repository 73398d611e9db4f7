/**
 * The valibot schemas of the verdict forms judges return (shared by the LLM verdict parser and the script judge).
 * Lenient on input (unknown keys ignored, numeric strings accepted as line numbers) because judges are models and
 * scripts written by others; `readVerdict` turns any accepted form into avp's `Verdict`. Lenient about shape, never
 * about passing: a verdict that contradicts itself fails, an ambiguous one is not a verdict.
 *
 * Import this module only when a judge result must be validated: valibot is not loaded on the hook fast path.
 */
import * as v from 'valibot';
import type { Verdict, Violation } from './types.ts';

const LineSchema = v.union([
  v.pipe(v.number(), v.integer()),
  v.pipe(
    v.string(),
    v.regex(/^\s*\d+\s*$/),
    v.transform((s) => Number.parseInt(s, 10)),
  ),
]);

const optText = v.optional(v.nullable(v.string()));

export const ViolationSchema = v.looseObject({
  rule: v.optional(v.nullable(v.string())),
  file: optText,
  line: v.optional(v.nullable(LineSchema)),
  snippet: optText,
  suggestion: optText,
  message: optText,
  severity: v.optional(v.nullable(v.picklist(['low', 'medium', 'high', 'critical']))),
});

/** The AVP verdict response (`decision`/`reason` may ride along). */
export const AvpResponseSchema = v.looseObject({
  // Some models quote booleans: "false" is read as false (the safe side). A quoted "true" is not a pass: it is
  // ambiguous (see `readVerdict`), so the judge is asked again and the validator fails closed if it insists.
  passed: v.union([
    v.boolean(),
    v.pipe(
      v.string(),
      v.regex(/^\s*false\s*$/i),
      v.transform(() => false),
    ),
  ]),
  violations: v.optional(v.nullable(v.array(ViolationSchema))),
  summary: optText,
  reason: optText,
  decision: v.optional(v.nullable(v.string())),
});

/** The earlier runner's `{"status": "passed"|"failed", "message"}`. */
export const StatusResponseSchema = v.looseObject({
  status: v.picklist(['passed', 'failed', 'pass', 'fail', 'PASSED', 'FAILED', 'PASS', 'FAIL']),
  message: optText,
});

export type AvpResponse = v.InferOutput<typeof AvpResponseSchema>;

/** JSON Schema of the verdict, given to LLM APIs as a tool input schema / response format. */
export const VERDICT_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['passed', 'violations', 'summary'],
  properties: {
    passed: { type: 'boolean', description: 'true when the change satisfies every rule of the validator' },
    violations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['rule', 'file', 'line', 'snippet', 'suggestion'],
        properties: {
          rule: { type: 'string', description: 'identifier of the violated rule' },
          file: { type: 'string', description: 'project-relative path of the file' },
          line: { type: 'integer', description: '1-based line number in the file after the change' },
          snippet: { type: 'string', description: 'the offending code' },
          suggestion: { type: 'string', description: 'how to fix it' },
        },
      },
    },
    summary: { type: 'string', description: 'one sentence' },
  },
} as const;

/** `decision` values that deny (Claude Code's `block`, permission `deny`, …); a pass with one of them is a failure. */
const DENYING = /^\s*(?:block(?:ed)?|den(?:y|ied)|reject(?:ed)?|fail(?:ed)?)\s*$/i;
/** `decision` values compatible with a pass. Any other decision next to `passed: true` is ambiguous. */
const ALLOWING = /^\s*(?:approve[d]?|allow(?:ed)?|pass(?:ed)?|continue|ok)?\s*$/i;

/** What one JSON value says: a verdict, or an ambiguous attempt at one (never a pass). */
export type Reading = { verdict: Verdict; ambiguous?: undefined } | { ambiguous: string; verdict?: undefined };

const failure = (rule: string, message: string, violations: Violation[] = []): Verdict => ({
  passed: false,
  violations: violations.length ? violations : [{ rule, message }],
  summary: message,
});

function violationsOf(list: AvpResponse['violations'], rule: string): Violation[] {
  return (list ?? []).map((x) => {
    const out: Violation = { rule: x.rule || rule };
    if (x.file) out.file = x.file;
    if (typeof x.line === 'number' && x.line > 0) out.line = x.line;
    if (x.snippet) out.snippet = x.snippet;
    if (x.suggestion) out.suggestion = x.suggestion;
    if (x.message) out.message = x.message;
    if (x.severity) out.severity = x.severity;
    return out;
  });
}

const quote = (x: unknown) => (JSON.stringify(x) ?? String(x)).slice(0, 60);
const withText = (said: string | undefined) => (said ? `: ${said}` : '');

/**
 * A field beside `passed: true` that says no in another vocabulary: a nested verdict that fails (`"verdict": {"passed":
 * false}`), an agent hook answer that denies (`hookSpecificOutput.permissionDecision: "deny"`, a PermissionRequest's
 * `decision.behavior: "deny"`) or stops (`continue: false`). A pass contradicted that way is not a verdict.
 */
function contradiction(raw: Record<string, unknown>, rule: string): string | undefined {
  if (raw.continue === false) return '"passed": true with "continue": false';
  const hso = raw.hookSpecificOutput;
  if (hso && typeof hso === 'object' && !Array.isArray(hso)) {
    const out = hso as Record<string, unknown>;
    const behavior = (out.decision as { behavior?: unknown } | undefined)?.behavior;
    for (const [name, said] of [
      ['permissionDecision', out.permissionDecision],
      ['decision.behavior', behavior],
    ] as const)
      if (typeof said === 'string' && !ALLOWING.test(said))
        return `"passed": true with hookSpecificOutput.${name} ${quote(said)}`;
  }
  // Every object field, hookSpecificOutput too (`{"decision": "block"}` inside it denies); readVerdict reads nothing
  // in arrays, null and scalars.
  for (const [key, inner] of Object.entries(raw)) {
    const reading = readVerdict(inner, rule);
    if (reading && !reading.verdict?.passed)
      return `"passed": true with a nested "${key}" that ${reading.ambiguous ? 'is ambiguous' : 'fails'}`;
  }
  return undefined;
}

/** The AVP form once valibot accepted it; contradictions are failures, an unknown decision next to a pass ambiguous. */
function readAvp(r: AvpResponse, raw: Record<string, unknown>, rule: string, denied: boolean): Reading {
  const violations = violationsOf(r.violations, rule);
  if (!r.passed) {
    // A failure with no listed violation still has to tell the agent what is wrong.
    if (!violations.length) return { verdict: failure(rule, r.reason || r.summary || 'the judge reported a failure') };
    return {
      verdict: { passed: false, violations, summary: r.summary || r.reason || `${violations.length} violation(s)` },
    };
  }
  const said = r.reason || r.summary || undefined;
  const decision = raw.decision as string | undefined;
  if (violations.length)
    return { verdict: failure(rule, `the judge said passed but listed ${violations.length} violation(s)`, violations) };
  if (denied) return { verdict: failure(rule, `the judge said passed with decision "${decision}"${withText(said)}`) };
  if (typeof raw.status === 'string' && /^\s*fail/i.test(raw.status))
    return { verdict: failure(rule, `the judge said passed with status "${raw.status}"${withText(said)}`) };
  if (typeof decision === 'string' && !ALLOWING.test(decision))
    return { ambiguous: `"passed": true with decision ${quote(decision)}` };
  const contradicted = contradiction(raw, rule);
  if (contradicted) return { ambiguous: contradicted };
  return { verdict: { passed: true, violations: [], summary: said || 'passed' } };
}

/** The first field the schema refused, as a path (`violations[0].severity`), and its value. */
function refused(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  let path = '';
  for (const step of issue?.path ?? []) {
    const key = (step as { key?: unknown }).key;
    path += typeof key === 'number' ? `[${key}]` : `${path ? '.' : ''}${String(key)}`;
  }
  // Never empty: an object that names `passed` is refused for one of its fields, so the issue has a path.
  return `"${path}" is ${quote(issue?.input)}`;
}

/**
 * Reads a parsed JSON value as one of the accepted verdict forms; `undefined` when it is none. A verdict that
 * contradicts itself is never a pass: `passed: true` with violations, with a denying `decision` or with
 * `status: "failed"` is a failure; a `passed` that is neither a boolean nor "false" (`"true"`, `1`, `"yes"`) and a pass
 * with an unknown `decision` are ambiguous. `rule` names violations the judge did not name.
 */
export function readVerdict(value: unknown, rule: string): Reading | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  const decision = typeof raw.decision === 'string' ? raw.decision : undefined;
  const denied = decision !== undefined && DENYING.test(decision);
  const avp = v.safeParse(AvpResponseSchema, value);
  if (avp.success) return readAvp(avp.output, raw, rule, denied);
  if ('passed' in raw) {
    // A readable `passed` beside a field the schema refuses: the message names that field, not `passed`.
    const readable =
      typeof raw.passed === 'boolean' || (typeof raw.passed === 'string' && /^\s*false\s*$/i.test(raw.passed));
    if (readable) return { ambiguous: `${refused(avp.issues)}, which a verdict cannot hold` };
    return { ambiguous: `"passed" is ${quote(raw.passed)}, not true or false` };
  }
  const status = v.safeParse(StatusResponseSchema, value);
  if (status.success) {
    const message = status.output.message || undefined;
    if (!/^pass/i.test(status.output.status))
      return { verdict: failure(rule, message || 'the judge reported a failure') };
    const listed = Array.isArray(raw.violations) ? raw.violations.length : 0;
    if (listed) return { verdict: failure(rule, `the judge said passed but listed ${listed} violation(s)`) };
    if (denied) return { verdict: failure(rule, `the judge said passed with decision "${decision}"`) };
    return { verdict: { passed: true, violations: [], summary: message || 'passed' } };
  }
  // Claude Code's own hook shape, `{"decision": "block", "reason": …}`: a denial is a failure; an approval alone is
  // no verdict (nothing in it says the rules were checked).
  if (denied) {
    const said = [raw.reason, raw.message].find((x): x is string => typeof x === 'string' && x !== '');
    return { verdict: failure(rule, said || `the judge's decision was "${decision}"`) };
  }
  return undefined;
}

/** `readVerdict` for callers that only want a usable verdict: ambiguous values are `undefined` (never a pass). */
export function toVerdict(value: unknown, rule: string): Verdict | undefined {
  return readVerdict(value, rule)?.verdict;
}
