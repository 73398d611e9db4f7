/**
 * no-secrets' rules: provider key formats, secret-like names, placeholders and the paths that are skipped. Every rule
 * is documented in ../references/rules.md (keep the two in step).
 */

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/** Character classes present: lower, upper, digit, symbol (`_`, `-`, `.` do not count: identifiers use them). */
export function classes(s: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9_.\-]/].filter((r) => r.test(s)).length;
}

export const PLACEHOLDER_WORD =
  /example|sample|dummy|placeholder|change.?(?:me|this|it)|redacted|replace|insert|your|xxxx|fake|mock|test|demo|foobar|lorem|todo|fixme|not.?(?:a.?)?real|not.?(?:a.?)?secret|invalid|insecure|do.?not.?use/i;
/** Documented example credentials that appear in real docs and tutorials (AWS, Google, Stripe, UUID docs, jwt.io). */
export const DOC_EXAMPLES = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe',
  'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  'sk_test_BQokikJOvBiI2HlWgH4olfQ2',
  'key-3ax6xnjp29jd6fds4gc373sgvjxteol0',
  '123e4567-e89b-12d3-a456-426614174000',
  '123e4567-e89b-12d3-a456-426655440000',
  // jwt.io's example token (HS256, "John Doe").
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
]);

/**
 * Template markers: `${X}`, `{{ x }}`, `{% x %}`, `{SumoAccessKey}`, `<TOKEN>`, `%s`, a leading `$`, ellipses, masks
 * (`***`, `####`, `xxxx`, `••`), SOPS-encrypted values (`ENC[AES256_GCM,…]`), documented examples.
 */
export const TEMPLATE =
  /\$\{|\{\{|\{%|\{[A-Za-z_][\w.-]*\}|<[A-Za-z_ -]+>|%\(?\w*\)?[sd]\b|…|\.\.\.|\*\*\*|###|[xX]{4}|••|\bENC\[/;

/** Template syntax, env references, masks, ellipses, long runs of one character. */
export function looksTemplated(v: string): boolean {
  return TEMPLATE.test(v) || /^\$/.test(v) || /(.)\1{5,}/.test(v) || DOC_EXAMPLES.has(v);
}

/** Leetspeak folded to letters so `s3cr3t`, `p4ssw0rd` are recognised as placeholder words. */
export const unleet = (s: string) =>
  s
    .toLowerCase()
    .replace(
      /[013457@$]/g,
      (c) => ({ '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' })[c] ?? c,
    );

/** Base64 that decodes to printable text (Kubernetes Secret `data:` values), else undefined. */
export function decodedBase64(v: string): string | undefined {
  if (v.length < 8 || v.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(v)) return undefined;
  const text = Buffer.from(v, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(text) ? text : undefined;
}

/** A generic value that is obviously not a real secret (also when base64-encoded). */
export function isPlaceholderValue(v: string): boolean {
  const u = unleet(v);
  if (looksTemplated(v) || PLACEHOLDER_WORD.test(v) || PLACEHOLDER_WORD.test(u) || /passw(or)?d|secret|s3cret/.test(u))
    return true;
  const decoded = decodedBase64(v);
  return decoded !== undefined && decoded !== v && isPlaceholderValue(decoded);
}

/** True when `s` holds `n` ascending characters in a row (`1234`, `abcd`): typed by a person, not generated. */
export function ascendingRun(s: string, n: number): boolean {
  const lower = s.toLowerCase();
  for (let i = 0; i + n <= lower.length; i++)
    if (['0123456789', 'abcdefghijklmnopqrstuvwxyz'].some((q) => q.includes(lower.slice(i, i + n)))) return true;
  return false;
}

/** Words that, as a whole segment of a token's random part (`ghp_your_token_here`), mark it as made up. */
const FAKE_SEGMENT =
  /^(?:your|my|example|sample|dummy|placeholder|fake|redacted|replace(?:me)?|changeme|insert|token|key|secret|here|xxx+|test(?:ing)?|demo|mock|foo|bar|todo)$/i;

/**
 * A provider token whose random part is provably made up: a documented example, template markers, a run of six
 * identical characters, an ascending run of six (`abcdef`, `123456`: typed, not generated), an `EXAMPLE` marker, a
 * random part made of placeholder words (`your_token_here`), or too little entropy to be random. A real-format key
 * that merely contains `test` or `demo` somewhere is NOT skipped.
 */
export function isFakeToken(token: string, body: string): boolean {
  if (TEMPLATE.test(token) || DOC_EXAMPLES.has(token)) return true;
  if (/(.)\1{5,}/.test(body) || ascendingRun(body, 6) || /EXAMPLE/.test(body)) return true;
  const words = body.split(/[^A-Za-z0-9]+/).filter(Boolean);
  if (words.some((w) => FAKE_SEGMENT.test(w)) && words.every((w) => FAKE_SEGMENT.test(w) || /^[a-z]{1,4}$/i.test(w)))
    return true;
  return body.length >= 16 ? entropy(body) < 3 : entropy(body) < 2.2;
}

export const SECRET_HINT = /pass|pwd|secret|token|key|credential|conn/i;

export const SECRET_NAME =
  /(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|client[_-]?secret|credentials?|secret[_-]?key[_-]?base|conn(?:ection)?[_-]?string)$/i;
/** Names that end like a secret but hold public or throwaway values. */
export const NOT_SECRET_NAME =
  /^(?:page|next|prev|continuation|cursor|csrf|xsrf|cancel|cancellation|sync|test|fake|mock|dummy|example|sample)|public|publishable/i;

/** `name = "value"`, `"name": "value"`, `name := "value"`, `NAME: 'value'`, `os.environ["NAME"] = "value"`. */
export const ASSIGN_BEFORE =
  /(["'`]?)([A-Za-z_$@][\w$.-]*)\1\]?\s*(?::\s*[A-Za-z_][\w<>[\]|?. ]*?\s*)?(:=|=>|[!=]==?|=|:|,)\s*[bru]?$/i;
export const LITERAL = /(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;
/** Files whose values are commonly unquoted: dotenv, shell, INI, properties, YAML, Dockerfile. */
export const UNQUOTED_FILE =
  /(?:^|\/)(?:\.env[^/]*|[^/]+\.(?:env|ini|cfg|conf|properties|ya?ml|sh|bash|zsh)|Dockerfile[^/]*)$/i;
export const UNQUOTED =
  /^\s*(?:export\s+|ENV\s+|ARG\s+|set\s+)?["']?([A-Za-z_][\w.-]*)["']?\s*(?:=|:\s|\s(?=\S))\s*([^\s"'`#;][^\s#;]*)\s*(?:[#;].*)?$/;

/**
 * Words and identifiers (`Passwort`, `newPassword`, `AuthToken`, `SESSION_KEY`): translations and names, not secrets.
 */
export const WORDLIKE = /^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*$|^[A-Z]+(?:_[A-Z]+)*$/;
/** A short word with a digit or two (`Welcome1`, `Summer24`, `HelloWorld`): a typed name or label, not generated. */
export const SHORT_WORD = /^[A-Za-z][a-z]+(?:[A-Z][a-z]+)*[0-9]{0,2}[!.]?$/;

export function genericValueIsSecret(name: string, value: string): boolean {
  const last = name.split('.').pop() ?? name;
  if (!SECRET_NAME.test(last) || NOT_SECRET_NAME.test(last)) return false;
  if (value.length < 8 || value.length > 400 || /\s/.test(value)) return false;
  if (/^(?:\.{0,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/|django-insecure-)/i.test(value)) return false;
  // A MIME type, a dotted property path (`advanced.tavilyApiKey`), a header or key name in kebab/snake case that
  // names a secret (`x-aws-ec2-metadata-token`): names, not values.
  if (/^[a-z]+\/[a-z0-9.+-]+$/i.test(value)) return false;
  if (
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) &&
    value.split('.').every((p) => WORDLIKE.test(p) || /^[a-z_]+$/.test(p))
  )
    return false;
  if (
    /^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(value) &&
    /(?:^|[-_])(?:token|key|secret|password|passwd|auth|credentials?)(?:$|[-_])/.test(value)
  )
    return false;
  if (isPlaceholderValue(value) || classes(value) < 2 || WORDLIKE.test(value)) return false;
  if (value.length <= 12 && SHORT_WORD.test(value)) return false;
  // An alphabet run (`sk_abcdefghijklmnopqrstuvwxyz123`) was typed; digit runs alone are not enough to tell.
  if (
    /abcdefgh|bcdefghi|cdefghij|defghijk|efghijkl|fghijklm|ghijklmn|hijklmno|ijklmnop|jklmnopq|klmnopqr|lmnopqrs|mnopqrst|nopqrstu|opqrstuv|pqrstuvw|qrstuvwx|rstuvwxy|stuvwxyz/i.test(
      value,
    )
  )
    return false;
  const h = entropy(value);
  return value.length < 16 ? h >= 2.5 : value.length < 32 ? h >= 3 : h >= 3.5;
}

export const LOCAL_HOST =
  /^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal|[a-z0-9_-]+)$|(?:^|\.)(?:example\.(?:com|org|net)|test|local|localhost|invalid)$/i;
export const URL_CREDS = /\b([a-z][a-z0-9+.-]{1,20}):\/\/([^\s:/@"'`]*):([^\s@/"'`]+)@([^\s/:"'`?#]+)/gi;

// ---------------------------------------------------------------------------------------------------------------
// Paths and markers
// ---------------------------------------------------------------------------------------------------------------

export const LOCKFILE =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|Pipfile\.lock|uv\.lock|pdm\.lock|composer\.lock|Gemfile\.lock|go\.sum|go\.work\.sum|flake\.lock|mix\.lock|Podfile\.lock|packages\.lock\.json|gradle\.lockfile|[^/]+\.lock)$/;
export const GENERATED = /(?:\.min\.(?:js|css)|\.map|\.svg|\.snap)$/;
export const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|specs?|fixtures|__fixtures__|testdata|test-data|__mocks__|mocks)\/|(?:^|\/)[^/]*(?:\.test|\.spec|_test|\.stories)\.[^/]+$|(?:^|\/)(?:test_[^/]+\.py|tests\.py|conftest\.py)$/i;
/** Templates, docs and translations: values there are examples or words, so only provider formats are checked. */
export const EXAMPLE_FILE =
  /(?:^|\/)(?:\.env\.(?:example|sample|template|dist|defaults)|[^/]*\.(?:example|sample|template|tmpl|dist))$|\.(?:md|mdx|rst|txt|adoc|po|pot|xliff|arb)$|(?:^|\/)(?:locales?|i18n|l10n|lang|translations)\//i;
export const ALLOW = /avp:allow-secret|pragma:\s*allowlist\s+secret|gitleaks:allow|nosecret/i;
export const COMMENT_LINE = /^\s*(?:\/\/|#|\/\*|\*|<!--|--|;)/;
export const EXAMPLE_COMMENT = /\b(?:example|e\.g\.|for instance|such as|looks like|format)\b/i;

export const mask = (s: string) => `${s.slice(0, 4)}…`;
export const KEY_HEADER = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/;
