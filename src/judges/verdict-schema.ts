/**
 * The valibot schemas of the verdict forms judges return (shared by the LLM verdict parser and the script judge).
 * Lenient on input (unknown keys ignored, numeric strings accepted as line numbers) because judges are models and
 * scripts written by others; `toVerdict` turns any accepted form into avp's `Verdict`.
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

/** seed 002's response (`decision`/`reason` may ride along). */
export const AvpResponseSchema = v.looseObject({
  // Some models quote booleans: "false" is read as false, never as a truthy string.
  passed: v.union([
    v.boolean(),
    v.pipe(
      v.picklist(['true', 'false']),
      v.transform((s) => s === 'true'),
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

/**
 * Validates a parsed JSON value as one of the accepted verdict forms; `undefined` when it is neither.
 * `rule` names violations the judge did not name (the status form has none).
 */
export function toVerdict(value: unknown, rule: string): Verdict | undefined {
  const avp = v.safeParse(AvpResponseSchema, value);
  if (avp.success) {
    const r = avp.output;
    const violations: Violation[] = (r.violations ?? []).map((x) => {
      const out: Violation = { rule: x.rule || rule };
      if (x.file) out.file = x.file;
      if (typeof x.line === 'number' && x.line > 0) out.line = x.line;
      if (x.snippet) out.snippet = x.snippet;
      if (x.suggestion) out.suggestion = x.suggestion;
      if (x.message) out.message = x.message;
      if (x.severity) out.severity = x.severity;
      return out;
    });
    const summary = r.summary || r.reason || (r.passed ? 'passed' : `${violations.length} violation(s)`);
    // A failure with no listed violation still has to tell the agent what is wrong.
    if (!r.passed && violations.length === 0)
      violations.push({ rule, message: r.reason || r.summary || 'the judge reported a failure' });
    return { passed: r.passed, violations, summary };
  }
  const status = v.safeParse(StatusResponseSchema, value);
  if (status.success) {
    const passed = /^pass/i.test(status.output.status);
    const message = status.output.message || (passed ? 'passed' : 'the judge reported a failure');
    return { passed, violations: passed ? [] : [{ rule, message }], summary: message };
  }
  return undefined;
}
