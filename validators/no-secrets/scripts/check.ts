#!/usr/bin/env bun
/**
 * no-secrets — avp catalog script judge (self-contained: Bun/Node built-ins only, installed alone).
 *
 * Reads the normalized avp HookEvent (JSON on stdin, or `validate(event)` in-process) and flags secrets in the lines
 * the change ADDED (diff `+` lines, or the whole content of a created file), so content that was already there is
 * never re-flagged. Precision first: see ../references/rules.md for every rule, what is skipped and why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

interface FileChange {
  path?: string;
  relPath?: string;
  kind?: 'create' | 'update' | 'delete';
  before?: string | null;
  after?: string | null;
  diff?: string;
}
interface HookEvent {
  event?: string;
  tool?: string;
  toolInput?: Record<string, unknown>;
  projectRoot?: string;
  cwd?: string;
  files?: FileChange[];
}
interface Violation {
  rule: string;
  file?: string;
  line?: number;
  snippet?: string;
  suggestion?: string;
  message?: string;
}
export interface Verdict {
  passed: boolean;
  violations: Violation[];
  summary: string;
}
interface Added {
  line?: number;
  text: string;
}

// ---------------------------------------------------------------------------------------------------------------
// What the change added
// ---------------------------------------------------------------------------------------------------------------

/** `+` lines of a unified diff, numbered in the AFTER file. */
function fromDiff(diff: string): Added[] {
  const out: Added[] = [];
  let next = 0;
  let inHunk = false;
  for (const l of diff.split('\n')) {
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) {
      next = Number(h[1]);
      inHunk = true;
    } else if (!inHunk) continue;
    else if (l.startsWith('+')) out.push({ line: next++, text: l.slice(1) });
    else if (l.startsWith(' ') || l === '') next++;
  }
  return out;
}

const numbered = (text: string, first = 1): Added[] => text.split('\n').map((t, i) => ({ line: first + i, text: t }));

/** Lines of `after` that `before` did not have (multiset difference), when no diff was given. */
function lineSetDiff(before: string, after: string): Added[] {
  const seen = new Map<string, number>();
  for (const l of before.split('\n')) seen.set(l, (seen.get(l) ?? 0) + 1);
  return numbered(after).filter((a) => {
    const n = seen.get(a.text) ?? 0;
    if (n > 0) seen.set(a.text, n - 1);
    return n === 0;
  });
}

/** Line (1-based) at which `needle` starts in the file on disk, when the event carries no file list. */
function lineOnDisk(path: string, needle: string): number | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf(needle);
    return at < 0 ? undefined : text.slice(0, at).split('\n').length;
  } catch {
    return undefined;
  }
}

/** The files and added lines of an event; falls back to the tool input when the engine gave no `files`. */
export function changes(event: HookEvent): Array<{ file: string; added: Added[]; after?: string }> {
  const root = event.projectRoot ?? event.cwd ?? process.cwd();
  const rel = (p: string) => (isAbsolute(p) && p.startsWith(root + '/') ? p.slice(root.length + 1) : p);
  if (event.files?.length) {
    return event.files.map((f) => {
      const file = f.relPath ?? rel(f.path ?? '');
      if (f.kind === 'delete' || f.after === null) return { file, added: [] };
      if (typeof f.diff === 'string' && f.diff.includes('@@')) return { file, added: fromDiff(f.diff), after: f.after ?? undefined };
      if (typeof f.after !== 'string') return { file, added: [] };
      const added = typeof f.before === 'string' ? lineSetDiff(f.before, f.after) : numbered(f.after);
      return { file, added, after: f.after };
    });
  }
  const input = event.toolInput ?? {};
  const path = String(input.file_path ?? input.notebook_path ?? '');
  if (!path) return [];
  const abs = isAbsolute(path) ? path : join(root, path);
  const pieces: string[] = [];
  if (typeof input.content === 'string') return [{ file: rel(path), added: numbered(input.content), after: input.content }];
  if (typeof input.new_string === 'string') pieces.push(input.new_string);
  if (typeof input.new_source === 'string') pieces.push(input.new_source);
  if (Array.isArray(input.edits)) for (const e of input.edits) if (typeof e?.new_string === 'string') pieces.push(e.new_string);
  const onDisk = existsSync(abs);
  const added = pieces.flatMap((p) => {
    const first = onDisk ? lineOnDisk(abs, p) : undefined;
    return first === undefined ? p.split('\n').map((text) => ({ text })) : numbered(p, first);
  });
  return [{ file: rel(path), added }];
}

// ---------------------------------------------------------------------------------------------------------------
// Classifying values
// ---------------------------------------------------------------------------------------------------------------

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/** Character classes present: lower, upper, digit, symbol (`_`, `-`, `.` do not count: identifiers use them). */
function classes(s: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9_.\-]/].filter((r) => r.test(s)).length;
}

const PLACEHOLDER_WORD =
  /example|sample|dummy|placeholder|change.?(?:me|this|it)|redacted|replace|insert|your|xxxx|fake|mock|test|demo|foobar|lorem|todo|fixme|not.?(?:a.?)?real|not.?(?:a.?)?secret|invalid|insecure|do.?not.?use/i;
/** Documented example credentials that appear in real docs and tutorials (AWS, Google, Slack, UUID docs). */
const DOC_EXAMPLES = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe',
  '123e4567-e89b-12d3-a456-426614174000',
  '123e4567-e89b-12d3-a456-426655440000',
  // jwt.io's example token (HS256, "John Doe").
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
]);

/** Template syntax, env references, masks, ellipses, long runs of one character. */
function looksTemplated(v: string): boolean {
  return (
    /\$\{|\{\{|\{%|<[A-Za-z_ -]+>|%\(?\w*\)?[sd]\b|^\$|…|\.\.\.|\*\*\*/.test(v) ||
    /(.)\1{5,}/.test(v) ||
    DOC_EXAMPLES.has(v)
  );
}

/** Leetspeak folded to letters so `s3cr3t`, `p4ssw0rd` are recognised as placeholder words. */
const unleet = (s: string) =>
  s.toLowerCase().replace(/[013457@$]/g, (c) => ({ '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' })[c] ?? c);

/** Base64 that decodes to printable text (Kubernetes Secret `data:` values), else undefined. */
function decodedBase64(v: string): string | undefined {
  if (v.length < 8 || v.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(v)) return undefined;
  const text = Buffer.from(v, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(text) ? text : undefined;
}

/** A generic value that is obviously not a real secret (also when base64-encoded). */
function isPlaceholderValue(v: string): boolean {
  const u = unleet(v);
  if (looksTemplated(v) || PLACEHOLDER_WORD.test(v) || PLACEHOLDER_WORD.test(u) || /passw(or)?d|secret|s3cret/.test(u)) return true;
  const decoded = decodedBase64(v);
  return decoded !== undefined && decoded !== v && isPlaceholderValue(decoded);
}

/** A provider token whose random part is clearly made up (`ghp_xxxx…`, `…EXAMPLE`, `abcdefgh…`, `12345678…`). */
function isFakeToken(token: string, body: string): boolean {
  if (looksTemplated(token) || PLACEHOLDER_WORD.test(body)) return true;
  const lower = body.toLowerCase();
  const seq = ['0123456789', 'abcdefghijklmnopqrstuvwxyz'];
  for (let i = 0; i + 8 <= lower.length; i++) if (seq.some((s) => s.includes(lower.slice(i, i + 8)))) return true;
  return entropy(body) < 3;
}

// ---------------------------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------------------------

interface ProviderRule {
  id: string;
  what: string;
  re: RegExp;
  /** Capture group holding the random part checked by isFakeToken (default: whole match). */
  body?: number;
  /** Capture group holding the secret itself (default: whole match). */
  secret?: number;
}

// Boundaries: a token must not be the middle of a longer identifier. Formats without a distinctive prefix (AKIA…,
// AIza…, SK…, Discord) also must not sit inside a base64 run (`/` and `+` are base64 characters).
const B = String.raw`(?<![A-Za-z0-9_-])`;
const E = String.raw`(?![A-Za-z0-9_-])`;
const BS = String.raw`(?<![A-Za-z0-9_+/-])`;
const ES = String.raw`(?![A-Za-z0-9_+/=-])`;
const PROVIDERS: ProviderRule[] = [
  { id: 'aws-access-key-id', what: 'AWS access key id', re: new RegExp(`${BS}((?:AKIA|ASIA|ABIA|ACCA)([A-Z0-9]{16}))${ES}`, 'g'), body: 2, secret: 1 },
  {
    id: 'aws-secret-access-key',
    what: 'AWS secret access key',
    re: /(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["'`]?\s*(?:[:=]|=>)\s*["'`]?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    body: 1,
    secret: 1,
  },
  { id: 'github-token', what: 'GitHub token', re: new RegExp(`${B}(gh[pousr]_([A-Za-z0-9]{36,251}))${E}`, 'g'), body: 2, secret: 1 },
  { id: 'github-token', what: 'GitHub fine-grained token', re: new RegExp(`${B}(github_pat_([A-Za-z0-9_]{60,251}))${E}`, 'g'), body: 2, secret: 1 },
  { id: 'gitlab-token', what: 'GitLab token', re: new RegExp(`${B}(gl(?:pat|dt|rt|cbt|ptt|ft|imt|agent)-([A-Za-z0-9_-]{20,}))${E}`, 'g'), body: 2, secret: 1 },
  { id: 'slack-token', what: 'Slack token', re: new RegExp(`${B}(xox[baprse]-((?:[0-9]{6,}-){1,3}[A-Za-z0-9-]{16,}))${E}`, 'g'), body: 2, secret: 1 },
  {
    id: 'slack-webhook',
    what: 'Slack webhook URL',
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/(T[A-Z0-9]{6,}\/[AB][A-Z0-9]{6,}\/([A-Za-z0-9]{20,}))/g,
    body: 2,
    secret: 1,
  },
  { id: 'stripe-key', what: 'Stripe live secret key', re: new RegExp(`${B}((?:sk|rk)_live_([A-Za-z0-9]{20,}))${E}`, 'g'), body: 2, secret: 1 },
  { id: 'anthropic-key', what: 'Anthropic API key', re: new RegExp(`${B}(sk-ant-[a-z]+[0-9]*-([A-Za-z0-9_-]{32,}))${E}`, 'g'), body: 2, secret: 1 },
  { id: 'openai-key', what: 'OpenAI API key', re: new RegExp(`${B}(sk-(?:proj|svcacct|admin)-([A-Za-z0-9_-]{32,}))${E}`, 'g'), body: 2, secret: 1 },
  { id: 'openai-key', what: 'OpenAI API key', re: new RegExp(`${B}(sk-([A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48}))${E}`, 'g'), body: 2, secret: 1 },
  { id: 'google-api-key', what: 'Google API key', re: new RegExp(`${BS}(AIza([0-9A-Za-z_-]{35}))${ES}`, 'g'), body: 2, secret: 1 },
  { id: 'twilio-key', what: 'Twilio API key', re: new RegExp(`${BS}(SK([0-9a-f]{32}))${ES}`, 'g'), body: 2, secret: 1 },
  {
    id: 'sendgrid-key',
    what: 'SendGrid API key',
    re: new RegExp(`${B}(SG\\.([A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  { id: 'npm-token', what: 'npm access token', re: new RegExp(`${B}(npm_([A-Za-z0-9]{36}))${E}`, 'g'), body: 2, secret: 1 },
  { id: 'pypi-token', what: 'PyPI API token', re: new RegExp(`${B}(pypi-AgEIcHlwaS5vcmc([A-Za-z0-9_-]{50,}))${E}`, 'g'), body: 2, secret: 1 },
  {
    id: 'discord-token',
    what: 'Discord bot token',
    re: new RegExp(`${BS}([MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.([A-Za-z0-9_-]{27,40}))${ES}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'discord-webhook',
    what: 'Discord webhook URL',
    re: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/([0-9]{17,20}\/([A-Za-z0-9_-]{60,}))/g,
    body: 2,
    secret: 1,
  },
  {
    id: 'npmrc-auth-token',
    what: 'registry auth token in .npmrc',
    re: /:_auth(?:Token)?\s*=\s*(?!\$\{)(([A-Za-z0-9+/=_-]{20,}))/g,
    body: 2,
    secret: 1,
  },
];

/** Cheap pre-filters: a line without any of these cannot match a provider rule / a secret-like name. */
const PROVIDER_HINT = /A[KSB]IA|ACCA|secret|gh[pousr]_|github_pat_|gl[a-z]+-|xox|hooks\.slack|_live_|sk-|AIza|SK[0-9a-f]|SG\.|npm_|pypi-|discord|_auth|\.[A-Za-z0-9_-]{6}\./i;
const SECRET_HINT = /pass|pwd|secret|token|key|credential|conn/i;

const SECRET_NAME =
  /(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|client[_-]?secret|credentials?|secret[_-]?key[_-]?base|conn(?:ection)?[_-]?string)$/i;
/** Names that end like a secret but hold public or throwaway values. */
const NOT_SECRET_NAME = /^(?:page|next|prev|continuation|cursor|csrf|xsrf|cancel|cancellation|sync|test|fake|mock|dummy|example|sample)|public|publishable/i;

/** `name = "value"`, `"name": "value"`, `name := "value"`, `NAME: 'value'`, `os.environ["NAME"] = "value"`. */
const ASSIGN_BEFORE =
  /(["'`]?)([A-Za-z_$@][\w$.-]*)\1\]?\s*(?::\s*[A-Za-z_][\w<>[\]|?. ]*?\s*)?(:=|=>|[!=]==?|=|:|,)\s*[bru]?$/i;
const LITERAL = /(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;
/** Files whose values are commonly unquoted: dotenv, shell, INI, properties, YAML, Dockerfile. */
const UNQUOTED_FILE = /(?:^|\/)(?:\.env[^/]*|[^/]+\.(?:env|ini|cfg|conf|properties|ya?ml|sh|bash|zsh)|Dockerfile[^/]*)$/i;
const UNQUOTED = /^\s*(?:export\s+|ENV\s+|ARG\s+|set\s+)?["']?([A-Za-z_][\w.-]*)["']?\s*(?:=|:\s|\s(?=\S))\s*([^\s"'`#;][^\s#;]*)\s*(?:[#;].*)?$/;

/** Words and identifiers (`Passwort`, `newPassword`, `AuthToken`, `SESSION_KEY`): translations and names, not secrets. */
const WORDLIKE = /^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*$|^[A-Z]+(?:_[A-Z]+)*$/;

function genericValueIsSecret(name: string, value: string): boolean {
  const last = name.split('.').pop() ?? name;
  if (!SECRET_NAME.test(last) || NOT_SECRET_NAME.test(last)) return false;
  if (value.length < 8 || value.length > 400 || /\s/.test(value)) return false;
  if (/^(?:\.{0,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/|django-insecure-)/i.test(value)) return false;
  if (isPlaceholderValue(value) || classes(value) < 2 || WORDLIKE.test(value)) return false;
  const h = entropy(value);
  return value.length < 16 ? h >= 2.5 : value.length < 32 ? h >= 3 : h >= 3.5;
}

const LOCAL_HOST = /^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal|[a-z0-9_-]+)$|(?:^|\.)(?:example\.(?:com|org|net)|test|local|localhost|invalid)$/i;
const URL_CREDS = /\b([a-z][a-z0-9+.-]{1,20}):\/\/([^\s:/@"'`]*):([^\s@/"'`]+)@([^\s/:"'`?#]+)/gi;

// ---------------------------------------------------------------------------------------------------------------
// Paths and markers
// ---------------------------------------------------------------------------------------------------------------

const LOCKFILE =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|Pipfile\.lock|uv\.lock|pdm\.lock|composer\.lock|Gemfile\.lock|go\.sum|go\.work\.sum|flake\.lock|mix\.lock|Podfile\.lock|packages\.lock\.json|gradle\.lockfile|[^/]+\.lock)$/;
const GENERATED = /(?:\.min\.(?:js|css)|\.map|\.svg|\.snap)$/;
const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|specs?|fixtures|__fixtures__|testdata|test-data|__mocks__|mocks)\/|(?:^|\/)[^/]*(?:\.test|\.spec|_test|\.stories)\.[^/]+$|(?:^|\/)(?:test_[^/]+\.py|tests\.py|conftest\.py)$/i;
/** Templates, docs and translations: values there are examples or words, so only provider formats are checked. */
const EXAMPLE_FILE =
  /(?:^|\/)(?:\.env\.(?:example|sample|template|dist|defaults)|[^/]*\.(?:example|sample|template|tmpl|dist))$|\.(?:md|mdx|rst|txt|adoc|po|pot|xliff|arb)$|(?:^|\/)(?:locales?|i18n|l10n|lang|translations)\//i;
const ALLOW = /avp:allow-secret|pragma:\s*allowlist\s+secret|gitleaks:allow|nosecret/i;
const COMMENT_LINE = /^\s*(?:\/\/|#|\/\*|\*|<!--|--|;)/;

const mask = (s: string) => `${s.slice(0, 4)}…`;
const KEY_HEADER = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/;

// ---------------------------------------------------------------------------------------------------------------
// The judge
// ---------------------------------------------------------------------------------------------------------------

const SUGGESTION =
  'Remove the value and read it at run time from an environment variable or a secret manager (e.g. process.env.NAME, os.environ["NAME"]); rotate it if it is real. If it is test data, say so with `avp:allow-secret` in a comment on that line.';

/** Scans one added line; returns the violations found (secret masked). */
function scanLine(file: string, a: Added, around: { prev: string; next: string }, opts: { heuristics: boolean; keys: boolean }): Violation[] {
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
  if (opts.heuristics) {
    for (const m of text.matchAll(URL_CREDS)) {
      const [, , , pass = '', host = ''] = m;
      const at = (m.index ?? 0) + m[0].lastIndexOf(`:${pass}@`) + 1;
      if (overlaps(at, at + pass.length) || LOCAL_HOST.test(host) || pass.length < 6) continue;
      if (isPlaceholderValue(pass) || /^(?:pass|pwd|user|username|admin|root|guest)$/i.test(pass)) continue;
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
      suggestion: f.rule === 'private-key' ? 'Keep private keys out of the repository: load the key from a file outside it or a secret manager, and rotate it if it is real.' : SUGGESTION,
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
      const prev = added[i - 1]?.line !== undefined && added[i - 1]!.line === (a.line ?? NaN) - 1 ? added[i - 1]!.text : '';
      // A PGP block has an empty line and maybe armor headers before the key material: look 4 lines ahead.
      let next = '';
      for (let j = i + 1; j <= i + 4 && added[j]?.line !== undefined && added[j]!.line === (a.line ?? NaN) + (j - i); j++) next += `${added[j]!.text}\n`;
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
