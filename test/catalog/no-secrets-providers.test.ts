/**
 * no-secrets' provider table (validators/no-secrets/scripts/providers.ts): every rule finds a token of its documented
 * format under its own id and description, its verification refuses look-alikes, the keyword prefilter keeps other
 * lines free of rules, and references/rules.md lists the table as it is.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '../../validators/no-secrets/scripts/check.ts';
import { base62, candidates, PROVIDERS } from '../../validators/no-secrets/scripts/providers.ts';
import { PROVIDER_SAMPLES } from './no-secrets-samples.ts';

const ROOT = join(import.meta.dir, '../..');
const RULES_MD = join(ROOT, 'validators/no-secrets/references/rules.md');

/** What no-secrets reports for `line` added to `file` (rule and description of each finding). */
function findings(line: string, file = 'src/settings.ts') {
  const verdict = validate({
    event: 'PostToolUse',
    tool: 'Write',
    projectRoot: '/nonexistent/project',
    cwd: '/nonexistent/project',
    files: [{ relPath: file, kind: 'create', before: null, after: `${line}\n` }],
  });
  return verdict.violations.map((v) => ({ rule: v.rule, what: v.message?.replace(/ \(.{4}…\) is hard-coded$/u, '') }));
}

describe('every provider rule', () => {
  test('has a sample line (one per rule, in the table order)', () => {
    expect(PROVIDER_SAMPLES.length).toBe(PROVIDERS.length);
  });

  test.each(PROVIDERS.map((r, i) => [i, r.id, r.what] as const))(
    'rule %d (%s: %s) finds its format, and only it',
    (i, id, what) => {
      const line = PROVIDER_SAMPLES[i]!;
      expect(candidates(line)).toContain(PROVIDERS[i]!);
      expect({ line, found: findings(line) }).toEqual({ line, found: [{ rule: id, what }] });
    },
  );
});

describe('verification of the formats without a distinctive prefix', () => {
  const b64url = (s: string) => Buffer.from(s).toString('base64url');
  const sig = 'Qm9yq4Zt8kW2xN7vLp3cHd6sJf1gYa0eRi5uTo9nMb';

  test('a JWT is flagged only when its header decodes to a JSON header', () => {
    const payload = b64url('{"sub":"Rk82mQ","iat":1764115200}');
    expect(findings(`t = "${b64url('{"alg":"HS256"}')}.${payload}.${sig}"`)).toEqual([
      { rule: 'jwt', what: 'JSON Web Token' },
    ]);
    expect(findings(`t = "${b64url('{"name":"Ada Lovelace"}')}.${payload}.${sig}"`)).toEqual([]);
  });

  test('a Docker "auth" value is flagged only when it decodes to user:password', () => {
    const auth = (s: string) => `{ "auth": "${Buffer.from(s).toString('base64')}" }`;
    expect(findings(auth('deploy:Vt8qLm2xRw9z'))).toEqual([
      { rule: 'docker-config-auth', what: 'registry credentials in Docker config.json' },
    ]);
    expect(findings(auth('deploy-Vt8qLm2xRw9z'))).toEqual([]);
  });

  test('a base64 run starting like a PEM header is flagged only when it decodes to a private key', () => {
    const b64 = (s: string) => `k = "${Buffer.from(s).toString('base64')}"`;
    const material = 'MIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2dEcCQ7xrEuGdgbfDPkRMwEZnWYn';
    expect(findings(b64(`-----BEGIN EC PRIVATE KEY-----\n${material}\n`))).toEqual([
      { rule: 'private-key', what: 'base64-encoded private key' },
    ]);
    expect(findings(b64(`-----BEGIN CERTIFICATE-----\n${material}\n`))).toEqual([]);
  });

  test('a PuTTY header is flagged only for a key algorithm', () => {
    expect(findings('PuTTY-User-Key-File-2: ecdsa-sha2-nistp256')).toEqual([
      { rule: 'private-key', what: 'PuTTY private key' },
    ]);
    expect(findings('PuTTY-User-Key-File-2: Hd8sK2-mQ9x')).toEqual([]);
  });
});

test('JWTs and Docker auth values are weak formats: not judged in tests, templates or docs', () => {
  for (const i of [
    PROVIDERS.findIndex((r) => r.id === 'jwt'),
    PROVIDERS.findIndex((r) => r.id === 'docker-config-auth'),
  ]) {
    const line = PROVIDER_SAMPLES[i]!;
    expect(findings(line)).toHaveLength(1);
    for (const file of ['test/fixtures/session.ts', 'docs/api.md', 'config/app.example'])
      expect({ file, found: findings(line, file) }).toEqual({ file, found: [] });
  }
});

test('the keyword prefilter: a line without a 20-character run or without a keyword runs no rule', () => {
  // A long path, a dotted name and a date: runs of token characters, none a provider's keyword or shape.
  for (const line of [
    'import { Navigation } from "../components/navigation/sidebar-layout.tsx";',
    'const total = config.settings.preferences.displayDensityLevel;',
    'const released = "2025/11/26 12:00 release/version-candidate";',
  ])
    expect({ line, rules: candidates(line) }).toEqual({ line, rules: [] });
  // Keywords without a run of token characters: the cheap test skips the keyword scan.
  expect(candidates('const prefixes = ["ghp_", "sk-ant-", "xoxb-"];')).toEqual([]);
  // Shapes stand in for the one-character keywords (`.` for Discord, `/` for Asana).
  const discord = PROVIDERS.find((r) => r.id === 'discord-token')!;
  const asana = PROVIDERS.find((r) => r.id === 'asana-token')!;
  expect(candidates(`x = "${'N'.repeat(24)}.abcdef.${'q'.repeat(30)}"`)).toContain(discord);
  expect(candidates(`x = "1/${'7'.repeat(12)}:${'f'.repeat(32)}"`)).toContain(asana);
});

test("base62 divides by 62 for each digit (GitHub's and npm's checksum encoding)", () => {
  expect(base62(3 * 62 + 5, 2)).toBe('35');
  expect(base62(62 ** 2 + 2 * 62 + 61, 3)).toBe('12z');
});

test('references/rules.md lists every provider rule: provider, ids, descriptions and prefilter keywords', () => {
  const md = readFileSync(RULES_MD, 'utf8');
  const table = md.slice(md.indexOf('| provider | rule ids |')).split('\n\n')[0]!.split('\n').slice(2);
  const groups = new Map<string, typeof PROVIDERS>();
  for (const r of PROVIDERS) groups.set(r.provider, [...(groups.get(r.provider) ?? []), r]);
  const uniq = (xs: string[]) => [...new Set(xs)];
  const rows = [...groups].map(([provider, rules]) => {
    const ids = uniq(rules.map((r) => `\`${r.id}\``)).join(', ');
    const whats = uniq(rules.map((r) => r.what)).join('; ');
    const keywords = uniq(rules.flatMap((r) => r.keywords))
      .filter((k) => k !== '.' && k !== '/')
      .map((k) => `\`${k}\``)
      .join(' ');
    return `| ${provider} | ${ids} | ${whats} | ${keywords} |`;
  });
  expect(table).toEqual(rows);
  expect(md).toContain(`${PROVIDERS.length} rules for ${groups.size} providers`);
});
