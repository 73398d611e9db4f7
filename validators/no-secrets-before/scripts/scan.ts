/**
 * Scans added lines for secrets: provider formats (./providers.ts, behind a keyword prefilter), private key blocks,
 * passwords in URLs, Authorization headers, high-entropy literals assigned to secret-like names (./rules.ts), and the
 * project's own gitleaks rules and allowlists (./gitleaks.ts). The secret is masked in every report.
 */
import type { Added, Violation } from './added-lines.ts';
import type { GitleaksConfig } from './gitleaks.ts';
import { candidates, PROVIDERS } from './providers.ts';
import {
  ALLOW,
  ascendingRun,
  ASSIGN_BEFORE,
  COMMENT_LINE,
  entropy,
  EXAMPLE_COMMENT,
  genericValueIsSecret,
  isFakeToken,
  isPlaceholderValue,
  KEY_HEADER,
  LITERAL,
  LOCAL_HOST,
  mask,
  SECRET_HINT,
  UNQUOTED,
  UNQUOTED_FILE,
  URL_CREDS,
} from './rules.ts';

export const SUGGESTION =
  'Remove the value and read it at run time from an environment variable or a secret manager (e.g. process.env.NAME, os.environ["NAME"]); rotate it if it is real. If it is test data, say so with `avp:allow-secret` in a comment on that line.';
const KEY_SUGGESTION =
  'Keep private keys out of the repository: load the key from a file outside it or a secret manager, and rotate it if it is real.';

export interface ScanOptions {
  /** Heuristic rules (generic assignments, URLs, headers) and weak formats: off in tests, templates and docs. */
  heuristics: boolean;
  /** Private key blocks: off in test paths, where test keys are the norm. */
  keys: boolean;
  gitleaks?: GitleaksConfig;
}

interface Finding {
  rule: string;
  what: string;
  secret: string;
  at: number;
}

const PRIORITY = new Map(PROVIDERS.map((r, i) => [r, i]));
/**
 * Cheap tests first, on every added line: what a pattern cannot match without (`://`, the word authorization,
 * `;base64,`, `ENC[`) is looked for before `matchAll` or a replace runs it. Most lines hold none of them, and the
 * engine compiles `matchAll` and `sort` (built-ins written in JavaScript) on their first call: ~0.2 ms of a hook call.
 */
const AUTH_WORD = /authorization/i;
const BASE64_WORD = /;base64,/i;
const AUTH = /\bauthorization["']?\s*[:=,]?\s*["'`]?\s*(?:bearer|basic|token)\s+([A-Za-z0-9._~+/=-]{16,})/gi;

function providerFindings(text: string, opts: ScanOptions, claim: (s: number, e: number) => boolean): Finding[] {
  const found: Finding[] = [];
  const rules = candidates(text);
  if (rules.length > 1) rules.sort((a, b) => PRIORITY.get(a)! - PRIORITY.get(b)!);
  for (const r of rules) {
    if ((r.weak && !opts.heuristics) || (r.id === 'private-key' && !opts.keys)) continue;
    for (const m of text.matchAll(r.re)) {
      const secret = m.groups?.s ?? m[0];
      const body = m.groups?.b ?? secret;
      const at = (m.index ?? 0) + m[0].indexOf(secret);
      // A made-up token is claimed anyway, so the generic rule does not report it under another name.
      if (!claim(at, at + secret.length)) continue;
      if (isFakeToken(secret, body) || (r.verify && !r.verify(secret))) continue;
      found.push({ rule: r.id, what: r.what, secret, at });
    }
  }
  return found;
}

function keyFinding(text: string, next: string): Finding | undefined {
  const key = KEY_HEADER.exec(text);
  if (!key) return undefined;
  const rest = text.slice(key.index + key[0].length);
  const material = /(?:\\n|\s|^)([A-Za-z0-9+/]{32,})/.test(rest) ? rest : '';
  const after = material || next;
  if (!/[A-Za-z0-9+/]{40,}|Proc-Type:|Comment:/.test(after) || /\.\.\.|…|<|REDACTED|xxxx/i.test(after))
    return undefined;
  return { rule: 'private-key', what: `${key[1] ?? ''}private key block`.trim(), secret: '', at: key.index };
}

function heuristicFindings(file: string, text: string, claim: (s: number, e: number) => boolean): Finding[] {
  const found: Finding[] = [];
  for (const m of text.includes('://') ? text.matchAll(URL_CREDS) : []) {
    const [, , , pass = '', host = ''] = m;
    const at = (m.index ?? 0) + m[0].lastIndexOf(`:${pass}@`) + 1;
    if (LOCAL_HOST.test(host) || pass.length < 6 || isPlaceholderValue(pass)) continue;
    if (/^(?:pass|pwd|user|username|admin|root|guest)$/i.test(pass) || ascendingRun(pass, 4)) continue;
    if (claim(at, at + pass.length))
      found.push({ rule: 'credentials-in-url', what: 'password in a URL', secret: pass, at });
  }
  for (const m of AUTH_WORD.test(text) ? text.matchAll(AUTH) : []) {
    const secret = m[1] ?? '';
    const at = (m.index ?? 0) + m[0].lastIndexOf(secret);
    if (isPlaceholderValue(secret) || entropy(secret) < 3.2 || !claim(at, at + secret.length)) continue;
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
    if (!before) continue;
    const [, q, name = '', sep] = before;
    // `f(token, "x")` is an argument list; `("API_KEY", "x")` a pair, when the name looks like a key (`"A", "B"` in
    // prose is a list); `cond ? token : "x"` a ternary.
    if (sep === ',' && (!q || !/^[A-Z0-9_]+$|[_-]/.test(name))) continue;
    if (sep === ':' && /\?\s*[\w$.]+\s*:\s*$/.test(prefix)) continue;
    if (!genericValueIsSecret(name, value.replace(/\\(.)/g, '$1')) || !claim(at, at + value.length)) continue;
    found.push({ rule: 'hardcoded-secret', what: `secret-like value assigned to \`${name}\``, secret: value, at });
  }
  if (UNQUOTED_FILE.test(file) && SECRET_HINT.test(text)) {
    const m = UNQUOTED.exec(text);
    if (m && m[1] && m[2] && genericValueIsSecret(m[1], m[2])) {
      const at = text.lastIndexOf(m[2]);
      if (claim(at, at + m[2].length))
        found.push({ rule: 'hardcoded-secret', what: `secret-like value assigned to \`${m[1]}\``, secret: m[2], at });
    }
  }
  return found;
}

/** Scans one added line; returns the violations found (secret masked). */
export function scanLine(
  file: string,
  a: Added,
  around: { prev: string; next: string },
  opts: ScanOptions,
): Violation[] {
  // A data: URI (inline image, font) is base64 noise, not a credential; a SOPS value is ciphertext.
  let text = a.text;
  if (BASE64_WORD.test(text)) text = text.replace(/data:[a-z]+\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+/gi, ' ');
  if (text.includes('ENC[AES256_GCM,')) text = text.replace(/ENC\[AES256_GCM,[^\]]*\]/g, ' ');
  if (ALLOW.test(a.text) || (ALLOW.test(around.prev) && COMMENT_LINE.test(around.prev))) return [];
  const gl = opts.gitleaks;
  if (gl?.allowsLine(a.text)) return [];
  const taken: Array<[number, number]> = [];
  const claim = (s: number, e: number) => {
    if (taken.some(([a0, a1]) => s < a1 && e > a0)) return false;
    taken.push([s, e]);
    return true;
  };
  const found = providerFindings(text, opts, claim);
  if (opts.keys) {
    const key = keyFinding(text, around.next);
    if (key && claim(key.at, text.length)) found.push(key);
  }
  // A comment that shows an example (`// example: DB_URL=postgres://u:p@host`) documents a format; only provider
  // formats, which are never made up by accident, are still checked on it.
  if (opts.heuristics && !(COMMENT_LINE.test(text) && EXAMPLE_COMMENT.test(text)))
    found.push(...heuristicFindings(file, text, claim));
  if (gl) for (const f of gl.scan(file, text)) if (claim(f.at, f.at + f.secret.length)) found.push(f);
  return found
    .filter((f) => !gl || !f.secret || !gl.allowsSecret(f.secret))
    .map((f) => {
      // The key header is not secret but what follows it is: show only the header.
      let snippet = f.secret
        ? a.text.trim().split(f.secret).join(mask(f.secret))
        : (KEY_HEADER.exec(a.text)?.[0] ?? '');
      if (snippet.length > 160) snippet = `${snippet.slice(0, 157)}…`;
      return {
        rule: f.rule,
        file,
        ...(a.line === undefined ? {} : { line: a.line }),
        snippet,
        message: `${f.what}${f.secret ? ` (${mask(f.secret)})` : ''} is hard-coded`,
        suggestion: f.rule === 'private-key' ? KEY_SUGGESTION : SUGGESTION,
      };
    });
}

/** Scans the added lines of one file; neighbours count only when they are adjacent lines of the after file. */
export function scanAdded(
  file: string,
  added: Added[],
  opts: ScanOptions,
): { violations: Violation[]; scanned: number } {
  const violations: Violation[] = [];
  let scanned = 0;
  for (const [i, a] of added.entries()) {
    if (a.text.includes('\0')) break; // binary content
    scanned++;
    const prev =
      added[i - 1]?.line !== undefined && added[i - 1]!.line === (a.line ?? NaN) - 1 ? added[i - 1]!.text : '';
    // A PGP block has an empty line and maybe armor headers before the key material: look 4 lines ahead.
    let next = '';
    for (let j = i + 1; j <= i + 4 && j < added.length; j++) {
      const n = added[j]!;
      if (a.line !== undefined && n.line !== a.line + (j - i)) break;
      next += `${n.text}\n`;
    }
    violations.push(...scanLine(file, a, { prev, next }, opts));
  }
  return { violations, scanned };
}
