/**
 * no-secrets' line scan (validators/no-secrets/scripts/scan.ts) in detail: one finding per span of text (the first
 * rule in the table's order claims it), exactly what a violation says, the heuristic rules' guards, the allow markers,
 * and how far a private key header looks for its material.
 */
import { describe, expect, test } from 'bun:test';
import type { Added } from '../../validators/no-secrets/scripts/added-lines.ts';
import { scanAdded, scanLine, SUGGESTION } from '../../validators/no-secrets/scripts/scan.ts';
import { randomText } from './no-secrets-samples.ts';

const r = randomText(4242);
const GLPAT = `glpat-${r(20)}`;
const GHP = `ghp_${r(36)}`;
const AKIA = `AKIA${r(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`;
const MATERIAL = 'MIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2dEcCQ7xrEuGdgbfDPkRMwEZnWYn';
const SRC = { heuristics: true, keys: true };

/** Rules of the findings on one line of `src/app.ts` (heuristics and key blocks on). */
const rules = (text: string, file = 'src/app.ts', opts = SRC) =>
  scanLine(file, { line: 3, text }, { prev: '', next: '' }, opts).map((v) => v.rule);

describe('one finding per span', () => {
  test('the table order decides: a Discord token ending like a Mailgun key is the Discord token', () => {
    const discord = `M${r(25)}.${r(6)}.key-${r(32, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
    expect(rules(`client.login("${discord}");`)).toEqual(['discord-token']);
  });
  test('two tokens on a line are both reported, whichever comes first', () => {
    expect(rules(`const ids = ["${GHP}", "${AKIA}"];`).sort()).toEqual(['aws-access-key-id', 'github-token']);
    expect(rules(`const ids = ["${AKIA}", "${GHP}"];`).sort()).toEqual(['aws-access-key-id', 'github-token']);
  });
  test('a token in a URL is the provider token, not also a password in the URL', () => {
    expect(rules(`    const mirrorRemoteUrl = "https://oauth2:${GLPAT}@gitlab.com/acme/app.git";`)).toEqual([
      'gitlab-token',
    ]);
    // A token as the user name and a password after it: two spans, two findings.
    expect(rules(`git clone https://${GHP}:Zq8vLm3xW7@github.com/acme/app.git`).sort()).toEqual([
      'credentials-in-url',
      'github-token',
    ]);
  });
  test('a token in an Authorization header is the provider token', () => {
    expect(rules(`curl --silent --show-error -H "Authorization: Bearer ${GLPAT}" https://gitlab.acme.io/api`)).toEqual([
      'gitlab-token',
    ]);
  });
  test('a provider token named like a secret is reported once, under its provider', () => {
    expect(rules(`    config.awsSecretAccessKey = "${r(40)}";`)).toEqual(['aws-secret-access-key']);
    expect(rules(`GITHUB_TOKEN=${GHP}`, '.env')).toEqual(['github-token']);
  });
  test('a key header whose line also holds a token: the token, once', () => {
    const lines: Added[] = [
      { line: 1, text: `-----BEGIN RSA PRIVATE KEY----- ${GHP}` },
      { line: 2, text: MATERIAL },
    ];
    expect(scanAdded('deploy/key.txt', lines, SRC).violations.map((v) => v.rule)).toEqual(['github-token']);
  });
});

describe('what a violation says', () => {
  test('a provider finding: masked snippet, message, line and the general suggestion', () => {
    const [v] = scanLine('src/app.ts', { line: 7, text: `  const t = "${GHP}";` }, { prev: '', next: '' }, SRC);
    expect(v).toEqual({
      rule: 'github-token',
      file: 'src/app.ts',
      line: 7,
      snippet: 'const t = "ghp_…";',
      message: 'GitHub token (ghp_…) is hard-coded',
      suggestion: SUGGESTION,
    });
    expect(SUGGESTION).toStartWith('Remove the value and read it at run time from an environment variable');
  });
  test('a key block: the header as the snippet, the key type in the message, the key suggestion', () => {
    const header = '-----BEGIN RSA PRIVATE KEY-----';
    const v = scanAdded(
      'deploy/id_rsa',
      [
        { line: 1, text: header },
        { line: 2, text: MATERIAL },
      ],
      SRC,
    ).violations;
    expect(v).toEqual([
      {
        rule: 'private-key',
        file: 'deploy/id_rsa',
        line: 1,
        snippet: header,
        message: 'RSA private key block is hard-coded',
        suggestion: expect.stringContaining('Keep private keys out of the repository') as unknown as string,
      },
    ]);
    expect(v[0]!.suggestion).not.toBe(SUGGESTION);
  });
  test('URL passwords and Authorization headers name what they found', () => {
    const msg = (text: string) =>
      scanLine('src/app.ts', { text }, { prev: '', next: '' }, SRC).map((v) => v.message?.replace(/ \(.*/, ''));
    expect(msg('const url = "postgres://app:Zq8vLm3xW7@db.acme.io/app";')).toEqual(['password in a URL']);
    expect(msg(`fetch(u, { headers: { Authorization: "Bearer Zq8vLm3xW7Kp2Hd9" } })`)).toEqual([
      'credential in an Authorization header',
    ]);
  });
  test('a snippet longer than 160 characters is cut to 157 and an ellipsis; 160 are kept', () => {
    const snippet = (pad: number) =>
      scanLine('src/a.ts', { text: `t = "${GHP}"; //${'.'.repeat(pad)}` }, { prev: '', next: '' }, SRC)[0]!.snippet!;
    const short = snippet(160 - 't = "ghp_…"; //'.length);
    expect(short).toHaveLength(160);
    expect(short.endsWith('.')).toBe(true);
    const long = snippet(161 - 't = "ghp_…"; //'.length);
    expect(long).toHaveLength(158);
    expect(long.endsWith('…')).toBe(true);
  });
});
