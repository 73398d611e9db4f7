#!/usr/bin/env bun
/**
 * no-secrets — avp catalog script judge (self-contained: Bun/Node built-ins and the files next to it, installed alone).
 *
 * Reads the normalized avp HookEvent (JSON on stdin, or `validate(event)` in-process) and flags secrets in the lines
 * the change ADDED (./added-lines.ts), so content that was already there is never re-flagged. Precision first: the
 * rules (./rules.ts) and what is skipped and why are documented in ../references/rules.md.
 */
import { type Added, changes, type HookEvent, type Verdict, type Violation } from './added-lines.ts';
import {
  ALLOW,
  ASSIGN_BEFORE,
  COMMENT_LINE,
  entropy,
  EXAMPLE_COMMENT,
  EXAMPLE_FILE,
  GENERATED,
  genericValueIsSecret,
  isFakeToken,
  ascendingRun,
  isPlaceholderValue,
  KEY_HEADER,
  LITERAL,
  LOCAL_HOST,
  LOCKFILE,
  mask,
  PROVIDER_HINT,
  PROVIDERS,
  SECRET_HINT,
  TEST_PATH,
  UNQUOTED,
  UNQUOTED_FILE,
  URL_CREDS,
} from './rules.ts';

export type { Verdict } from './added-lines.ts';

const SUGGESTION =
  'Remove the value and read it at run time from an environment variable or a secret manager (e.g. process.env.NAME, os.environ["NAME"]); rotate it if it is real. If it is test data, say so with `avp:allow-secret` in a comment on that line.';

/** Scans one added line; returns the violations found (secret masked). */
function scanLine(
  file: string,
  a: Added,
  around: { prev: string; next: string },
  opts: { heuristics: boolean; keys: boolean },
): Violation[] {
  // A data: URI (inline image, font) is base64 noise, not a credential.
  const text = a.text.replace(/data:[a-z]+\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+/gi, ' ');
  if (ALLOW.test(a.text) || (ALLOW.test(around.prev) && COMMENT_LINE.test(around.prev))) return [];
  const found: Array<{ rule: string; what: string; secret: string; at: number }> = [];
  const taken: Array<[number, number]> = [];
  const overlaps = (s: number, e: number) => taken.some(([a0, a1]) => s < a1 && e > a0);

  // Most lines hold no candidate at all: one cheap test skips the twenty provider patterns.
  for (const r of PROVIDER_HINT.test(text) ? PROVIDERS : []) {
    for (const m of text.matchAll(r.re)) {
      const secret = m[r.secret ?? 0] ?? m[0];
      const body = m[r.body ?? 0] ?? secret;
      const at = (m.index ?? 0) + m[0].indexOf(secret);
      if (overlaps(at, at + secret.length)) continue;
      // A made-up token is claimed anyway, so the generic rule does not report it under another name.
      taken.push([at, at + secret.length]);
      if (!isFakeToken(secret, body)) found.push({ rule: r.id, what: r.what, secret, at });
    }
  }
  if (opts.keys) {
    const key = KEY_HEADER.exec(text);
    if (key) {
      const rest = text.slice(key.index + key[0].length);
      const material = /(?:\\n|\s|^)([A-Za-z0-9+/]{32,})/.test(rest) ? rest : '';
      const next = material || around.next;
      if (/[A-Za-z0-9+/]{40,}|Proc-Type:/.test(next) && !/\.\.\.|…|<|REDACTED|xxxx/i.test(next)) {
        found.push({ rule: 'private-key', what: `${key[1] ?? ''}private key block`.trim(), secret: '', at: key.index });
        taken.push([key.index, text.length]);
      }
    }
  }
  // A comment that shows an example (`// example: DB_URL=postgres://u:p@host`) documents a format; only provider
  // formats, which are never made up by accident, are still checked on it.
  if (opts.heuristics && !(COMMENT_LINE.test(text) && EXAMPLE_COMMENT.test(text))) {
    for (const m of text.matchAll(URL_CREDS)) {
      const [, , , pass = '', host = ''] = m;
      const at = (m.index ?? 0) + m[0].lastIndexOf(`:${pass}@`) + 1;
      if (overlaps(at, at + pass.length) || LOCAL_HOST.test(host) || pass.length < 6) continue;
      if (
        isPlaceholderValue(pass) ||
        /^(?:pass|pwd|user|username|admin|root|guest)$/i.test(pass) ||
        ascendingRun(pass, 4)
      )
        continue;
      taken.push([at, at + pass.length]);
      found.push({ rule: 'credentials-in-url', what: 'password in a URL', secret: pass, at });
    }
    const auth = /\bauthorization["']?\s*[:=,]?\s*["'`]?\s*(?:bearer|basic|token)\s+([A-Za-z0-9._~+/=-]{16,})/gi;
    for (const m of text.matchAll(auth)) {
      const secret = m[1] ?? '';
      const at = (m.index ?? 0) + m[0].lastIndexOf(secret);
      if (overlaps(at, at + secret.length) || isPlaceholderValue(secret) || entropy(secret) < 3.2) continue;
      taken.push([at, at + secret.length]);
      found.push({ rule: 'authorization-header', what: 'credential in an Authorization header', secret, at });
    }
    // Literals are judged only on lines naming a secret, and not on generated lines of thousands of characters.
    for (const m of SECRET_HINT.test(text) && text.length <= 4000 ? text.matchAll(LITERAL) : []) {
      const value = m[2] ?? '';
      const at = (m.index ?? 0) + 1;
      const prefix = text.slice(Math.max(0, at - 1 - 80), at - 1);
      // Cheap checks before the anchored regex: a separator right before the literal, a secret word in reach.
      if (!/[=:,>]\s*[bru]?$/i.test(prefix) || !SECRET_HINT.test(prefix)) continue;
      const before = ASSIGN_BEFORE.exec(prefix);
      if (!before || overlaps(at, at + value.length)) continue;
      const [, q, name = '', sep] = before;
      if (sep === ',' && !q) continue; // `f(token, "x")` is an argument list, `("API_KEY", "x")` a pair
      if (!genericValueIsSecret(name, value.replace(/\\(.)/g, '$1'))) continue;
      taken.push([at, at + value.length]);
      found.push({ rule: 'hardcoded-secret', what: `secret-like value assigned to \`${name}\``, secret: value, at });
    }
    if (UNQUOTED_FILE.test(file) && SECRET_HINT.test(text)) {
      const m = UNQUOTED.exec(text);
      if (m && m[1] && m[2]) {
        const at = text.lastIndexOf(m[2]);
        if (!overlaps(at, at + m[2].length) && genericValueIsSecret(m[1], m[2])) {
          found.push({ rule: 'hardcoded-secret', what: `secret-like value assigned to \`${m[1]}\``, secret: m[2], at });
        }
      }
    }
  }
  return found.map((f) => {
    // The key header is not secret but what follows it is: show only the header.
    let snippet = f.secret ? a.text.trim().split(f.secret).join(mask(f.secret)) : (KEY_HEADER.exec(a.text)?.[0] ?? '');
    if (snippet.length > 160) snippet = `${snippet.slice(0, 157)}…`;
    return {
      rule: f.rule,
      file,
      ...(a.line === undefined ? {} : { line: a.line }),
      snippet,
      message: `${f.what}${f.secret ? ` (${mask(f.secret)})` : ''} is hard-coded`,
      suggestion:
        f.rule === 'private-key'
          ? 'Keep private keys out of the repository: load the key from a file outside it or a secret manager, and rotate it if it is real.'
          : SUGGESTION,
    };
  });
}

/** Judges an event: flags secrets in added lines. Pure apart from reading a file when the event lists none. */
export function validate(event: HookEvent): Verdict {
  const violations: Violation[] = [];
  let scanned = 0;
  for (const { file, added } of changes(event)) {
    if (LOCKFILE.test(file) || GENERATED.test(file)) continue;
    const inTests = TEST_PATH.test(file);
    const opts = { heuristics: !inTests && !EXAMPLE_FILE.test(file), keys: !inTests };
    for (const [i, a] of added.entries()) {
      if (a.text.includes('\0')) break; // binary content
      scanned++;
      // Neighbours count only when they are the adjacent lines of the after file (both added).
      const prev =
        added[i - 1]?.line !== undefined && added[i - 1]!.line === (a.line ?? NaN) - 1 ? added[i - 1]!.text : '';
      // A PGP block has an empty line and maybe armor headers before the key material: look 4 lines ahead.
      let next = '';
      for (
        let j = i + 1;
        j <= i + 4 && added[j]?.line !== undefined && added[j]!.line === (a.line ?? NaN) + (j - i);
        j++
      )
        next += `${added[j]!.text}\n`;
      violations.push(...scanLine(file, a, { prev, next }, opts));
    }
  }
  const files = new Set(violations.map((v) => v.file)).size;
  return {
    passed: violations.length === 0,
    violations,
    summary: violations.length
      ? `${violations.length} hard-coded secret${violations.length > 1 ? 's' : ''} in ${files} file${files > 1 ? 's' : ''}`
      : `no secrets in ${scanned} added line${scanned === 1 ? '' : 's'}`,
  };
}

if (import.meta.main) {
  try {
    const event = JSON.parse(await Bun.stdin.text()) as HookEvent;
    // console.log, not process.stdout.write: initialising Node's stdout stream costs ~10 ms of CPU per run.
    console.log(JSON.stringify(validate(event)));
  } catch (err) {
    console.error(`no-secrets: cannot read the event on stdin: ${(err as Error).message}`);
    process.exit(1);
  }
}
