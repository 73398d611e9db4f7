/**
 * The project's `.gitleaks.toml`, when it has one: its `[[rules]]` run beside no-secrets' own, and its allowlists
 * (global `[allowlist]` / `[[allowlists]]`, and each rule's own) skip findings. What is read is listed in
 * ../VALIDATOR.md. Parsed with Bun's built-in TOML parser; cached by the file's size and mtime.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { entropy } from './rules.ts';

interface Allowlist {
  paths: RegExp[];
  regexes: RegExp[];
  stopwords: string[];
  /** What `regexes` are matched against: the secret (default), the whole match, or the line. */
  target: 'secret' | 'match' | 'line';
  /** `AND`: every listed criterion must hold; `OR` (default): any. */
  and: boolean;
  /** Rule ids a global allowlist is limited to (`targetRules`); empty: all rules. */
  rules: string[];
}
interface Rule {
  id: string;
  what: string;
  re?: RegExp;
  path?: RegExp;
  secretGroup: number;
  entropy: number;
  keywords: string[];
  allowlists: Allowlist[];
}
export interface GitleaksFinding {
  rule: string;
  what: string;
  secret: string;
  at: number;
}
export interface GitleaksConfig {
  file: string;
  /** A path the global allowlists skip entirely. */
  allowsPath(file: string): boolean;
  /** The line carries `gitleaks:allow` (always honoured) — kept here so callers ask one place. */
  allowsLine(line: string): boolean;
  /** A built-in finding's secret that the global allowlists (regexes, stopwords) allow. */
  allowsSecret(secret: string): boolean;
  scan(file: string, line: string): GitleaksFinding[];
}

type Table = Record<string, unknown>;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strs = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');

/** Go RE2 → JavaScript: a leading `(?i)` becomes the `i` flag, `(?P<n>` a named group, `\z` the end. */
function goRegex(src: string, file: string, where: string): RegExp {
  let flags = '';
  let s = src;
  const lead = /^\(\?([imsU]+)\)/.exec(s);
  if (lead) {
    flags += lead[1]!.replace(/[^ims]/g, '');
    s = s.slice(lead[0].length);
  }
  s = s
    .replace(/\(\?P</g, '(?<')
    .replace(/\\z/g, '$')
    .replace(/\\A/g, '^');
  try {
    return new RegExp(s, [...new Set(`g${flags}`)].join(''));
  } catch (e) {
    throw new Error(`${file}: ${where}: the regex \`${src}\` does not compile: ${(e as Error).message}`);
  }
}

function allowlist(t: Table, file: string, where: string): Allowlist {
  const target = t.regexTarget === 'match' || t.regexTarget === 'line' ? t.regexTarget : 'secret';
  return {
    paths: strs(t.paths).map((p, i) => goRegex(p, file, `${where} paths[${i}]`)),
    regexes: strs(t.regexes).map((p, i) => goRegex(p, file, `${where} regexes[${i}]`)),
    stopwords: strs(t.stopwords).map((w) => w.toLowerCase()),
    target,
    and: String(t.condition ?? '').toUpperCase() === 'AND',
    rules: strs(t.targetRules),
  };
}

const test = (re: RegExp, s: string) => {
  re.lastIndex = 0;
  return re.test(s);
};

/** True when `a` allows a finding (`secret`, whole `match`, `line`, in `file`). */
function allows(a: Allowlist, f: { secret: string; match: string; line: string; file: string }): boolean {
  const subject = a.target === 'line' ? f.line : a.target === 'match' ? f.match : f.secret;
  const checks: boolean[] = [];
  if (a.paths.length) checks.push(a.paths.some((r) => test(r, f.file)));
  if (a.regexes.length) checks.push(a.regexes.some((r) => test(r, subject)));
  if (a.stopwords.length) checks.push(a.stopwords.some((w) => f.secret.toLowerCase().includes(w)));
  if (!checks.length) return false;
  return a.and ? checks.every(Boolean) : checks.some(Boolean);
}

/** The line (1-based) where Bun's TOML parser stops: the first line after the longest prefix that parses. */
function badLine(text: string): number {
  const lines = text.split('\n');
  let good = 0;
  for (let k = 1; k <= lines.length; k++) {
    try {
      Bun.TOML.parse(lines.slice(0, k).join('\n'));
      good = k;
    } catch {
      /* a prefix may end inside a multi-line string: keep looking */
    }
  }
  return Math.min(good + 1, lines.length);
}

/** Parses a gitleaks configuration. Throws an Error naming the file and line on bad TOML or a bad regex. */
export function parseGitleaks(text: string, file: string): GitleaksConfig {
  let doc: Table;
  try {
    doc = Bun.TOML.parse(text) as Table;
  } catch (e) {
    const msg = (e as Error).message.replace(/^TOML Parse error:\s*/, '');
    throw new Error(`${file}:${badLine(text)}: not valid TOML (${msg}); fix the file or remove it`);
  }
  const global = [
    ...(doc.allowlist && typeof doc.allowlist === 'object' ? [doc.allowlist as Table] : []),
    ...(arr(doc.allowlists) as Table[]),
  ].map((t, i) => allowlist(t, file, `allowlists[${i}]`));
  const rules: Rule[] = (arr(doc.rules) as Table[]).map((t, i) => {
    const id = typeof t.id === 'string' ? t.id : `rule-${i + 1}`;
    const where = `rule ${id}`;
    const own = [
      ...(t.allowlist && typeof t.allowlist === 'object' ? [t.allowlist as Table] : []),
      ...(arr(t.allowlists) as Table[]),
    ];
    return {
      id,
      what: typeof t.description === 'string' ? t.description : `gitleaks rule ${id}`,
      ...(typeof t.regex === 'string' ? { re: goRegex(t.regex, file, where) } : {}),
      ...(typeof t.path === 'string' ? { path: goRegex(t.path, file, `${where} path`) } : {}),
      secretGroup: typeof t.secretGroup === 'number' ? t.secretGroup : 0,
      entropy: typeof t.entropy === 'number' ? t.entropy : 0,
      keywords: strs(t.keywords).map((k) => k.toLowerCase()),
      allowlists: own.map((a, j) => allowlist(a, file, `${where} allowlists[${j}]`)),
    };
  });
  const globalFor = (rule: string) => global.filter((a) => !a.rules.length || a.rules.includes(rule));
  return {
    file,
    allowsPath: (p) => global.some((a) => !a.rules.length && a.paths.length && a.paths.some((r) => test(r, p))),
    allowsLine: (line) => /gitleaks:allow/.test(line),
    allowsSecret: (secret) =>
      global.some(
        (a) =>
          !a.rules.length &&
          ((a.regexes.length > 0 && a.target === 'secret' && a.regexes.some((r) => test(r, secret))) ||
            (a.stopwords.length > 0 && a.stopwords.some((w) => secret.toLowerCase().includes(w)))),
      ),
    scan(p, line) {
      const out: GitleaksFinding[] = [];
      const lower = line.toLowerCase();
      for (const r of rules) {
        if (r.path && !test(r.path, p)) continue;
        if (!r.re) continue; // a path-only rule flags files by name: avp's protected-files does that job
        if (r.keywords.length && !r.keywords.some((k) => lower.includes(k))) continue;
        r.re.lastIndex = 0;
        for (const m of line.matchAll(r.re)) {
          const secret = (r.secretGroup ? m[r.secretGroup] : undefined) ?? m[m.length > 1 ? 1 : 0] ?? m[0];
          if (!secret || (r.entropy && entropy(secret) < r.entropy)) continue;
          const f = { secret, match: m[0], line, file: p };
          if ([...r.allowlists, ...globalFor(r.id)].some((a) => allows(a, f))) continue;
          out.push({ rule: `gitleaks:${r.id}`, what: r.what, secret, at: (m.index ?? 0) + m[0].indexOf(secret) });
        }
      }
      return out;
    },
  };
}

const cache = new Map<string, { stamp: string; config: GitleaksConfig }>();

/** The project's `.gitleaks.toml`, or undefined when it has none. Throws on a bad file (fail closed). */
export function loadGitleaks(root: string | undefined): GitleaksConfig | undefined {
  if (!root) return undefined;
  const file = join(root, '.gitleaks.toml');
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return undefined;
  const stamp = `${st.size}:${st.mtimeMs}`;
  const hit = cache.get(file);
  if (hit?.stamp === stamp) return hit.config;
  const config = parseGitleaks(readFileSync(file, 'utf8'), '.gitleaks.toml');
  cache.set(file, { stamp, config });
  return config;
}
