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
/** Documented example credentials that appear in real docs and tutorials (AWS, Google, Slack, UUID docs). */
export const DOC_EXAMPLES = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe',
  '123e4567-e89b-12d3-a456-426614174000',
  '123e4567-e89b-12d3-a456-426655440000',
  // jwt.io's example token (HS256, "John Doe").
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
]);

/** Template syntax, env references, masks, ellipses, long runs of one character. */
export function looksTemplated(v: string): boolean {
  return (
    /\$\{|\{\{|\{%|<[A-Za-z_ -]+>|%\(?\w*\)?[sd]\b|^\$|…|\.\.\.|\*\*\*/.test(v) ||
    /(.)\1{5,}/.test(v) ||
    DOC_EXAMPLES.has(v)
  );
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

/** A provider token whose random part is clearly made up (`ghp_xxxx…`, `…EXAMPLE`, `abcdefgh…`, `12345678…`). */
export function isFakeToken(token: string, body: string): boolean {
  if (looksTemplated(token) || PLACEHOLDER_WORD.test(body) || ascendingRun(body, 8)) return true;
  return entropy(body) < 3;
}

// ---------------------------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------------------------

export interface ProviderRule {
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
export const PROVIDERS: ProviderRule[] = [
  {
    id: 'aws-access-key-id',
    what: 'AWS access key id',
    re: new RegExp(`${BS}((?:AKIA|ASIA|ABIA|ACCA)([A-Z0-9]{16}))${ES}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'aws-secret-access-key',
    what: 'AWS secret access key',
    re: /(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["'`]?\s*(?:[:=]|=>)\s*["'`]?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    body: 1,
    secret: 1,
  },
  {
    id: 'github-token',
    what: 'GitHub token',
    re: new RegExp(`${B}(gh[pousr]_([A-Za-z0-9]{36,251}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'github-token',
    what: 'GitHub fine-grained token',
    re: new RegExp(`${B}(github_pat_([A-Za-z0-9_]{60,251}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'gitlab-token',
    what: 'GitLab token',
    re: new RegExp(`${B}(gl(?:pat|dt|rt|cbt|ptt|ft|imt|agent)-([A-Za-z0-9_-]{20,}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'slack-token',
    what: 'Slack token',
    re: new RegExp(`${B}(xox[baprse]-((?:[0-9]{6,}-){1,3}[A-Za-z0-9-]{16,}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'slack-webhook',
    what: 'Slack webhook URL',
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/(T[A-Z0-9]{6,}\/[AB][A-Z0-9]{6,}\/([A-Za-z0-9]{20,}))/g,
    body: 2,
    secret: 1,
  },
  {
    id: 'stripe-key',
    what: 'Stripe live secret key',
    re: new RegExp(`${B}((?:sk|rk)_live_([A-Za-z0-9]{20,}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'anthropic-key',
    what: 'Anthropic API key',
    re: new RegExp(`${B}(sk-ant-[a-z]+[0-9]*-([A-Za-z0-9_-]{32,}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'openai-key',
    what: 'OpenAI API key',
    re: new RegExp(`${B}(sk-(?:proj|svcacct|admin)-([A-Za-z0-9_-]{32,}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'openai-key',
    what: 'OpenAI API key',
    re: new RegExp(`${B}(sk-([A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'google-api-key',
    what: 'Google API key',
    re: new RegExp(`${BS}(AIza([0-9A-Za-z_-]{35}))${ES}`, 'g'),
    body: 2,
    secret: 1,
  },
  { id: 'twilio-key', what: 'Twilio API key', re: new RegExp(`${BS}(SK([0-9a-f]{32}))${ES}`, 'g'), body: 2, secret: 1 },
  {
    id: 'sendgrid-key',
    what: 'SendGrid API key',
    re: new RegExp(`${B}(SG\\.([A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'npm-token',
    what: 'npm access token',
    re: new RegExp(`${B}(npm_([A-Za-z0-9]{36}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
  {
    id: 'pypi-token',
    what: 'PyPI API token',
    re: new RegExp(`${B}(pypi-AgEIcHlwaS5vcmc([A-Za-z0-9_-]{50,}))${E}`, 'g'),
    body: 2,
    secret: 1,
  },
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
export const PROVIDER_HINT =
  /A[KSB]IA|ACCA|secret|gh[pousr]_|github_pat_|gl[a-z]+-|xox|hooks\.slack|_live_|sk-|AIza|SK[0-9a-f]|SG\.|npm_|pypi-|discord|_auth|\.[A-Za-z0-9_-]{6}\./i;
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

export function genericValueIsSecret(name: string, value: string): boolean {
  const last = name.split('.').pop() ?? name;
  if (!SECRET_NAME.test(last) || NOT_SECRET_NAME.test(last)) return false;
  if (value.length < 8 || value.length > 400 || /\s/.test(value)) return false;
  if (/^(?:\.{0,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/|django-insecure-)/i.test(value)) return false;
  if (isPlaceholderValue(value) || classes(value) < 2 || WORDLIKE.test(value)) return false;
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
