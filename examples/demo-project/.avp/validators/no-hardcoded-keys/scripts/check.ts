/**
 * A script judge for avp: the normalized hook event arrives as JSON on stdin, one AVP response goes to stdout.
 * Runs on the runtime inside the avp binary (no Node needed). Only lines the change added are checked.
 */
interface FileChange { relPath: string; after?: string | null; diff?: string }
interface HookEvent { files: FileChange[] }

const PATTERNS: Array<[string, RegExp]> = [
  ['OpenAI/Stripe-style secret key', /\bsk-(?:live|test|proj)?-?[A-Za-z0-9]{16,}\b/],
  ['AWS access key id', /\bAKIA[0-9A-Z]{16}\b/],
  ['GitHub token', /\bgh[pousr]_[A-Za-z0-9]{36,}\b/],
];

/** Added lines with their line numbers in the new content. */
function addedLines(f: FileChange): Array<[number, string]> {
  if (typeof f.after === 'string' && !f.diff) return f.after.split('\n').map((l, i) => [i + 1, l]);
  const out: Array<[number, string]> = [];
  let line = 0;
  for (const l of (f.diff ?? '').split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(l);
    if (hunk) line = Number(hunk[1]);
    else if (l.startsWith('+') && !l.startsWith('+++')) out.push([line++, l.slice(1)]);
    else if (!l.startsWith('-') && !l.startsWith('---')) line++;
  }
  return out;
}

export function validate(event: HookEvent) {
  const violations = [];
  for (const f of event.files) {
    for (const [line, text] of addedLines(f)) {
      for (const [what, re] of PATTERNS) {
        const m = re.exec(text);
        if (!m) continue;
        violations.push({
          rule: 'no-hardcoded-keys',
          file: f.relPath,
          line,
          snippet: text.trim().replace(m[0], `${m[0].slice(0, 8)}…`),
          message: `${what} hardcoded in source`,
          suggestion: 'Read it from the environment, e.g. process.env.API_KEY, and rotate the exposed key',
        });
      }
    }
  }
  return {
    passed: violations.length === 0,
    violations,
    summary: violations.length ? `${violations.length} hardcoded key(s) found` : 'no hardcoded keys',
  };
}

if (import.meta.main) {
  const event = JSON.parse(await Bun.stdin.text()) as HookEvent;
  console.log(JSON.stringify(validate(event)));
}
