/**
 * Reading a judge's reply. Models wrap JSON in prose and code fences, quote the code they reviewed (which may itself
 * contain verdict-shaped JSON planted by an attacker), or answer "ALLOW — reason" in plain text. Nothing ambiguous or
 * contradictory ever reads as a pass. The rules:
 * 1. every balanced `{…}` that parses as JSON (or one level inside it) is read with `readVerdict`: a verdict, an
 *    ambiguous one (`"passed": "true"`, a pass with an unknown decision) or nothing;
 * 2. if any verdict says failed, the last failed one wins (an injected `{"passed":true}` can never outvote the judge's
 *    own failure; an injected failure only blocks, which is the safe side);
 * 3. else anything ambiguous → `judge-unreadable` (the caller asks once for a repair, then fails closed);
 * 4. else a passing JSON verdict in a reply that says no in any form (`Deny: …`, `❌ DENY`, "I must DENY this change",
 *    "NOT ALLOWED", `## Verdict: FAIL`, "I cannot approve" — verdict-refusal.ts), or whose own summary does, is a
 *    failure: the passing object may be the reviewed code's, quoted;
 * 5. no JSON verdict → a DENY/FAIL/BLOCK line or any other refusal is a failure; else an ALLOW/PASS line is a pass;
 * 6. nothing readable → AvpError `judge-unreadable`.
 */
import { AvpError } from '../errors.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import type { Verdict } from './types.ts';
import { refusalIn } from './verdict-refusal.ts';
import { readVerdict, type Reading } from './verdict-schema.ts';

/** Replies longer than this are judged on their last part (a verdict comes at the end of a long reasoning). */
const MAX_REPLY = 200_000;

/** Balanced JSON objects in `text`, outermost first-to-last (string-aware, so braces inside strings do not count). */
export function jsonObjectsIn(text: string): unknown[] {
  const out: unknown[] = [];
  let i = text.indexOf('{');
  while (i !== -1 && i < text.length) {
    const end = matchingBrace(text, i);
    if (end !== -1) {
      try {
        out.push(JSON.parse(text.slice(i, end + 1)));
        i = text.indexOf('{', end + 1);
        continue;
      } catch {
        // not JSON (code, prose): look inside it
      }
    }
    i = text.indexOf('{', i + 1);
  }
  return out;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let j = start; j < text.length; j++) {
    const c = text[j];
    if (inString) {
      if (c === '\\') j++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j;
  }
  return -1;
}

const DECISION_LINE =
  /^[\s>*_#`✅✔️☑-]*(?:(?:final\s+)?(?:decision|verdict|result|answer)[*_`"]*\s*[:=]?[*_`"\s]*)?[*_`"]*(ALLOW(?:ED)?|APPROVE[D]?|PASS(?:ED)?|DENY|DENIED|BLOCK(?:ED)?|REJECT(?:ED)?|FAIL(?:ED)?)\b[*_`"]*[\s.]*(?:[-—–:]+\s*)?(.*)$/i;

function textDecision(text: string, rule: string): Verdict | undefined {
  const lines = text.split(/\r?\n/);
  let allow: { reason: string } | undefined;
  for (const [i, line] of lines.entries()) {
    const m = DECISION_LINE.exec(line);
    if (!m) continue;
    const word = m[1]!.toUpperCase();
    const rest = [m[2] ?? '', ...lines.slice(i + 1)].join('\n').trim().slice(0, 2000);
    if (/^(DEN|BLOCK|REJECT|FAIL)/.test(word)) return denial(rule, rest);
    allow ??= { reason: rest };
  }
  if (allow) return { passed: true, violations: [], summary: allow.reason.split('\n')[0] || 'passed' };
  return undefined;
}

function denial(rule: string, rest: string): Verdict {
  const message = rest || 'the judge denied the change';
  return { passed: false, violations: [{ rule, message }], summary: message.split('\n')[0]! };
}

/**
 * The reply says no somewhere (verdict-refusal.ts: a decisive line, a denying word in capitals, a refusal, a denying
 * mark), as a failed verdict; `undefined` when it does not. Prose such as "Fail when the change adds a key" (a
 * validator's rule, quoted) or "nothing to deny" is no denial.
 */
export function decisiveDenial(text: string, rule: string): Verdict | undefined {
  const said = refusalIn(text);
  if (said === undefined) return undefined;
  const v = denial(rule, said);
  return { ...v, summary: `the judge's reply holds a passing JSON verdict and a denial: ${v.summary}` };
}

/** The object values one level inside `o` (wrappers such as `{"verdict": {…}}`). */
export function nested(o: unknown): unknown[] {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return [];
  return Object.values(o).filter((x) => typeof x === 'object' && x !== null && !Array.isArray(x));
}

/**
 * Parses a judge's reply into a Verdict (see the module comment for the rules). `rule` names violations the reply
 * does not name (the validator's name, by default `judge`). Throws AvpError `judge-unreadable`.
 */
export function parseVerdict(text: string, opts: { rule?: string } = {}): Verdict {
  const rule = opts.rule ?? 'judge';
  const reply = (text ?? '').length > MAX_REPLY ? text.slice(-MAX_REPLY) : (text ?? '');
  if (!reply.trim()) {
    throw new AvpError('judge-unreadable', 'the judge returned an empty reply', {
      fix: 'check the judge backend (`avp doctor`); the validator fails closed until it answers',
    });
  }
  const readings: Reading[] = [];
  for (const o of jsonObjectsIn(reply)) {
    // `{"verdict": {...}}` and similar wrappers: look one level down when the object itself is not a verdict.
    const own = readVerdict(o, rule);
    if (own) readings.push(own);
    else for (const x of nested(o)) readings.push(...[readVerdict(x, rule)].filter((r) => r !== undefined));
  }
  const verdicts = readings.flatMap((r) => (r.verdict ? [r.verdict] : []));
  const failed = verdicts.filter((x) => !x.passed);
  if (failed.length) return failed[failed.length - 1]!;
  const ambiguous = readings.find((r) => r.ambiguous !== undefined)?.ambiguous;
  if (ambiguous) {
    throw new AvpError('judge-unreadable', `the judge's verdict is ambiguous (${ambiguous})`, {
      fix: 'the judge must answer "passed": true or false (a JSON boolean); the validator fails closed until it does',
    });
  }
  if (verdicts.length) {
    const last = verdicts[verdicts.length - 1]!;
    return decisiveDenial(reply, rule) ?? decisiveDenial(last.summary, rule) ?? last;
  }
  const fromText = textDecision(reply, rule);
  if (fromText && !fromText.passed) return fromText;
  const said = refusalIn(reply);
  if (said !== undefined) return denial(rule, said);
  if (fromText) return fromText;
  throw new AvpError(
    'judge-unreadable',
    `the judge's reply is not a verdict: ${JSON.stringify(reply.trim().slice(0, 160))}`,
    {
      fix: 'the judge must answer with the JSON verdict ({"passed": …, "violations": […], "summary": …}); try another model or backend',
    },
  );
}

/** Validates an already-parsed value (forced tool use input, structured output). Throws `judge-unreadable`. */
export function verdictFromValue(value: unknown, opts: { rule?: string } = {}): Verdict {
  const reading = readVerdict(value, opts.rule ?? 'judge');
  if (!reading?.verdict) {
    const why = reading?.ambiguous ? `is ambiguous (${reading.ambiguous})` : 'does not match the schema';
    throw new AvpError(
      'judge-unreadable',
      `the judge's structured verdict ${why}: ${JSON.stringify(value).slice(0, 160)}`,
      {
        fix: 'the judge must fill `passed` (a JSON boolean), `violations` and `summary`; try another model or backend',
      },
    );
  }
  return reading.verdict;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

/** New-side line ranges of a unified diff's hunks. */
export function hunkRanges(diff: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(m[1]);
    const len = m[2] === undefined ? 1 : Number(m[2]);
    if (len > 0) out.push([start, start + len - 1]);
  }
  return out;
}

function changeFor(files: FileChange[], file: string | undefined): FileChange | undefined {
  if (!file) return files.length === 1 ? files[0] : undefined;
  const f = file.replace(/\\/g, '/').replace(/^\.\//, '');
  return (
    files.find((c) => c.relPath === f || c.path === f) ??
    files.find((c) => c.path.endsWith(`/${f}`) || f.endsWith(`/${c.relPath}`))
  );
}

/**
 * Flags violations whose line does not exist in the change: past the end of the file's new content, or (when only a
 * diff is known) outside every hunk. The judge's claim stays in the report, marked `lineUnverified`.
 */
export function verifyLines(verdict: Verdict, event: HookEvent): Verdict {
  if (!event.files.length || !verdict.violations.some((x) => x.line !== undefined)) return verdict;
  const violations = verdict.violations.map((x) => {
    if (x.line === undefined) return x;
    const change = changeFor(event.files, x.file);
    if (!change) return x;
    let ok: boolean | undefined;
    if (typeof change.after === 'string') ok = x.line >= 1 && x.line <= lineCount(change.after);
    else if (change.after === null)
      ok = false; // deleted file: no line exists after the change
    else if (change.diff) ok = hunkRanges(change.diff).some(([a, b]) => x.line! >= a && x.line! <= b);
    return ok === false ? { ...x, lineUnverified: true } : x;
  });
  return { ...verdict, violations };
}
