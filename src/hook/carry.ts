/**
 * Findings carried from an edit that could not be refused (session/carried-findings.ts) raised where the agent can be
 * stopped: once at the session's next blocking point (any PreToolUse its adapter can deny — a shell command, a read, an
 * MCP call, another tool), and at every main-agent Stop until fixed (as the Stop validators' own findings are, under
 * the same loop guard). An edit of a file that has carried findings is never refused for them: it is the fix, and it
 * is judged as usual.
 */
import type { Decision } from '../agents/types.ts';
import { existsSync } from 'node:fs';
import { toolKindOf, type HookEvent } from '../protocol/event.ts';
import type { Validator } from '../validator/types.ts';
import { clip, killSwitchShort, killSwitchText, MAX_REASON } from '../runner/report-text.ts';
import type { Violation } from '../judges/types.ts';
import { readCarried, updateCarried, type CarriedFinding } from '../session/carried-findings.ts';
import { sessionDir } from '../session/store.ts';
import type { ValidatorRun } from '../runner/types.ts';

/** Carried findings whose file is gone carry nothing (a deleted file breaks no validator any more). */
const existing = (entries: CarriedFinding[]) => entries.filter((e) => existsSync(e.path));

/** Of those, the ones whose validator is still enabled and installed (the others are kept, not raised). */
function applying(entries: CarriedFinding[], active: Validator[]): CarriedFinding[] {
  const ids = new Set(active.map((v) => v.id));
  return existing(entries).filter((e) => ids.has(e.validator));
}

/** The files the call edits (write/edit tools), by absolute path. */
function editedPaths(event: HookEvent): Set<string> {
  const kind = toolKindOf(event);
  return new Set(
    kind === 'write' || kind === 'edit'
      ? event.files.flatMap((f) => (f.movedFrom ? [f.path, f.movedFrom] : [f.path]))
      : [],
  );
}

function describe(v: Violation, file: string): string {
  const where = `${v.file ?? file}${v.line ? `:${v.line}` : ''}`;
  let text = `  - ${where}: ${clip(v.message || v.rule || 'violation', 300)}`;
  if (v.rule && v.message) text += ` (rule ${clip(v.rule, 80)})`;
  if (v.snippet) text += `\n      code: ${clip(v.snippet.trim().replace(/\s*\n\s*/g, ' ⏎ '), 200)}`;
  if (v.suggestion) text += `\n      fix: ${clip(v.suggestion, 300)}`;
  return text;
}

/** The text of a refusal for carried findings, within the answer's budget (every file and validator named). */
export function carriedText(entries: CarriedFinding[], managed?: boolean): string {
  const budget = MAX_REASON - 2000;
  const lines: string[] = [];
  let left = 0;
  for (const e of entries) {
    const via = e.via ? ` (${e.via}: the edit was made before avp could refuse it)` : '';
    const head =
      e.status === 'error'
        ? `An earlier edit of ${e.file} could not be judged by [${e.validator}]${via}: ${clip(e.error?.cause ?? e.summary, 300)}`
        : `An earlier edit of ${e.file} broke [${e.validator}]${via}: ${clip(e.summary, 300)}`;
    const body = e.violations.slice(0, 3).map((v) => describe(v, e.file));
    const more = e.violations.length > 3 ? [`  - … ${e.violations.length - 3} more`] : [];
    const block = [head, ...body, ...more].join('\n');
    if (lines.join('\n').length + block.length > budget) {
      left++;
      continue;
    }
    lines.push(block);
  }
  if (left) lines.push(`… and ${left} more carried finding${left === 1 ? '' : 's'} (the Stop's report lists them).`);
  const files = [...new Set(entries.map((e) => e.file))];
  lines.push(
    '',
    `Fix ${files.length === 1 ? files[0] : 'these files'} before going on: an edit of ${files.length === 1 ? 'that file' : 'any of them'} is let through and judged as usual. ` +
      'This call was refused once for these findings; the agent is sent back at its stop until they are fixed.',
    killSwitchText(managed),
  );
  return lines.join('\n');
}

/**
 * At a blocking point: the refusal for carried findings not yet raised, marking them raised; undefined when there are
 * none, or when the call edits a file that has some (the fix goes through and is judged as usual).
 */
export async function carriedRefusal(
  event: HookEvent,
  active: Validator[],
  refuse: 'deny' | 'block',
  managed?: boolean,
): Promise<Decision | undefined> {
  const edited = editedPaths(event);
  let raised: CarriedFinding[] = [];
  await updateCarried(sessionDir(event.projectRoot, event.sessionId!), (entries) => {
    const kept = existing(entries);
    const now = applying(kept, active);
    const pending = now.filter((e) => !e.delivered);
    if (!pending.length || now.some((e) => edited.has(e.path))) return kept.length === entries.length ? entries : kept;
    raised = pending;
    return kept.map((e) => (pending.includes(e) ? { ...e, delivered: true } : e));
  });
  if (!raised.length) return undefined;
  const reason = carriedText(raised, managed);
  const files = [...new Set(raised.map((e) => e.file))];
  const names = [...new Set(raised.map((e) => e.validator))];
  const on = `${event.agentEvent ?? event.event}${event.tool ? ` ${event.agentTool ?? event.tool}` : ''}`;
  const summary = `an earlier edit of ${files.join(', ')} broke ${names.map((n) => `[${n}]`).join(', ')}`;
  return {
    kind: refuse,
    reason,
    userMessage: `avp refused ${on}: ${clip(summary, 600)}; the agent must fix it first. ${killSwitchShort(managed)}`,
    avp: {
      passed: false,
      violations: raised.flatMap((e) =>
        e.violations.map((v) => ({ ...v, file: v.file ?? e.file, validator: e.validator, carried: true })),
      ),
      summary: clip(summary, 600),
      carried: true,
    },
  };
}

/**
 * At the main agent's Stop: the carried findings not yet fixed, as one run per validator (reported with the Stop
 * validators' own runs; not written to the run log, where the edit's own run already is).
 */
export function carriedStopRuns(event: HookEvent, active: Validator[]): ValidatorRun[] {
  const entries = applying(readCarried(sessionDir(event.projectRoot, event.sessionId!)), active);
  const byValidator = new Map<string, CarriedFinding[]>();
  for (const e of entries) byValidator.set(e.validator, [...(byValidator.get(e.validator) ?? []), e]);
  return [...byValidator.values()].map((list) => {
    const first = list[0]!;
    const failed = list.filter((e) => e.status === 'failed');
    const files = [...new Set(list.map((e) => e.file))].join(', ');
    const run: ValidatorRun = {
      id: first.validator,
      name: first.name,
      severity: first.severity,
      path: first.validatorPath,
      status: failed.length ? 'failed' : 'error',
      durationMs: 0,
      judge: 'carried',
    };
    if (failed.length) {
      const violations = failed.flatMap((e) =>
        (e.violations.length ? e.violations : [{ rule: e.name, message: e.summary }]).map((v) => ({
          ...v,
          file: v.file ?? e.file,
          message: v.message
            ? `(from an earlier edit, not fixed yet) ${v.message}`
            : 'from an earlier edit, not fixed yet',
        })),
      );
      run.verdict = { passed: false, violations, summary: `an earlier edit of ${files} is still failing` };
    } else {
      run.error = {
        cause: `could not judge an earlier edit of ${files}: ${first.error?.cause ?? first.summary}`,
        fix: first.error?.fix ?? 'edit the file again so the validator can judge it',
        ...(first.error?.setup ? { setup: true } : {}),
      };
    }
    return run;
  });
}
