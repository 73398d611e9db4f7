/**
 * Whether a judge's reply says no, in any of the ways models say it — next to a passing JSON verdict (which may be the
 * reviewed code's own `{"passed": true}`, quoted) or without one. A reply that says no is never a pass.
 *
 * What counts as saying no (in the reply's prose: code fences, inline code and JSON objects are set aside, so quoted
 * code and the verdict's own fields do not count — except the decisive line forms, read everywhere):
 * - a decisive line: `DENY`, `Deny: …`, `fail — …`, `**REJECTED**`, `Not approved`, `No.`, `❌ DENY`, or a label
 *   (`Verdict:`, `## Decision —`, `Result:`, `Status:`) followed by a denying word or mark (`FAIL`, `deny`, `✗`);
 * - a denying word in capitals anywhere: `I must DENY this change.`, `NOT ALLOWED`, `ALLOW? No — DENY.` (not after
 *   "or"/"and"/"not"/"no": `answer ALLOW or DENY`, `NOT BLOCKED`);
 * - a refusal: "I cannot approve", "I must reject", "we won't allow", "this change is rejected", "must be blocked";
 * - a denying mark anywhere in prose: ❌ 🚫 ⛔ 🛑 ✗ ✘ ✖ 👎.
 * Not saying no: a rule quoted as prose ("Fail when the change adds a key"), "no violations found", "nothing to
 * deny", "tests failed earlier", "I see no reason to block it" (the must-pass corpus in test/unit/judges/).
 */

const DENY_WORD =
  'den(?:y|ied)|reject(?:ed)?|block(?:ed)?|fail(?:ed|s|ure)?|refuse[ds]?|disallow(?:ed)?|disapproved?|' +
  'not\\s+(?:allowed|approved|acceptable|permitted|passed|ok(?:ay)?)|unacceptable|changes\\s+requested';
const MARKS = '❌🚫⛔🛑✗✘✖👎';
const DECOR = `[\\s>*_#\`"'~|:\\-–—${MARKS}]*`;
const LABEL = '(?:final\\s+)?(?:decision|verdict|result|answer|status|outcome|conclusion|review)';

/**
 * `DENY`, `Deny: …`, `fail — …`, `Not approved`, `No.` as a whole line or before a separator — not a count of
 * nothing (`Failed: 0`, `Blocked: none`).
 */
const DECISIVE_LINE = new RegExp(
  `^${DECOR}(?:${DENY_WORD}|no)[*_\`"']*\\s*(?:$|[.!:;,\\-–—]+(?:\\s|$)(?!\\s*(?:0|none|nothing|zero)\\b))`,
  'iu',
);
/** `Verdict: FAIL`, `## Decision — deny because …`, `Result: ✗`: a label, then a denying word or mark. */
const LABELLED = new RegExp(
  `^${DECOR}${LABEL}[*_\`"']*\\s*[:=\\-–—]+\\s*[*_\`"'\\s]*(?:[${MARKS}]|(?:${DENY_WORD})\\b)`,
  'iu',
);
/** A denying word in capitals anywhere (case-sensitive), with what precedes it. */
const CAPITALS =
  /(^|[^A-Za-z])(DEN(?:Y|IED)|REJECT(?:ED)?|BLOCK(?:ED)?|FAIL(?:ED)?|REFUSED|DISALLOWED|NOT\s+(?:ALLOWED|APPROVED|ACCEPTABLE|PERMITTED))(?![A-Za-z])/g;
/** What makes a capitalised word a mention rather than a verdict: `ALLOW or DENY`, `NOT BLOCKED`, `nothing to DENY`. */
const MENTION = /(?:\bor|\band|\/|\bnot|\bno|\bnothing\s+to|\bwithout|\bnever)\s*$/i;
const REFUSALS = [
  /\b(?:i|we)(?:\s+(?:must|have\s+to|need\s+to|will|would|should|am\s+going\s+to|can\s+only|do))?\s+(?:deny|reject|block|refuse|disallow)\b/i,
  /\b(?:i|we)(?:'m|\s+am|\s+are)?\s+(?:cannot|can't|can\s+not|won't|will\s+not|unable\s+to|not\s+able\s+to|do\s+not|don't|must\s+not|refuse\s+to)\s+(?:approve|allow|accept|pass|permit|sign\s+off|let)\b/i,
  /\b(?:cannot|can't|can\s+not|must\s+not|should\s+not|shouldn't|will\s+not|won't)\s+be\s+(?:approved|allowed|accepted|merged|permitted|passed)\b/i,
  /\b(?:must|should|has\s+to|needs\s+to|will)\s+be\s+(?:rejected|blocked|denied|refused|disallowed)\b/i,
  /\b(?:this|the)\s+(?:change|edit|write|diff|patch|commit|code|file|request|update)\s+(?:is|was|gets)\s+(?:not\s+(?:allowed|approved|acceptable|permitted)|denied|rejected|blocked|refused|disallowed|unacceptable)\b/i,
];
const MARK_ANYWHERE = new RegExp(`[${MARKS}]`, 'u');

/** `text` with fenced code, inline code and JSON objects blanked out: what the judge says in its own words. */
export function proseOf(text: string): string {
  let out = text.replace(/```[\s\S]*?(?:```|$)/g, '\n').replace(/`[^`\n]*`/g, ' ');
  // JSON objects (balanced, string-aware, parseable): blanked from the last to the first, so offsets stay valid.
  const spans: Array<[number, number]> = [];
  for (let i = out.indexOf('{'); i !== -1;) {
    const end = closingBrace(out, i);
    if (end !== -1 && parses(out.slice(i, end + 1))) {
      spans.push([i, end + 1]);
      i = out.indexOf('{', end + 1);
    } else i = out.indexOf('{', i + 1);
  }
  for (const [a, b] of spans.reverse()) out = `${out.slice(0, a)} ${out.slice(b)}`;
  return out;
}

function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

function closingBrace(text: string, start: number): number {
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

/** A decisive denial line anywhere in `text` (quoted code included: a denial only ever blocks). */
export function decisiveLine(text: string): string | undefined {
  for (const line of text.split(/\r?\n/)) if (DECISIVE_LINE.test(line) || LABELLED.test(line)) return line.trim();
  return undefined;
}

/** The line of `text` that says no (see the module comment), or undefined when it says no such thing. */
export function refusalIn(text: string): string | undefined {
  const decisive = decisiveLine(text);
  if (decisive !== undefined) return decisive;
  for (const line of proseOf(text).split(/\r?\n/)) {
    if (MARK_ANYWHERE.test(line) || REFUSALS.some((r) => r.test(line))) return line.trim();
    for (const m of line.matchAll(CAPITALS)) {
      const before = line.slice(0, m.index! + m[1]!.length);
      if (!MENTION.test(before)) return line.trim();
    }
  }
  return undefined;
}
