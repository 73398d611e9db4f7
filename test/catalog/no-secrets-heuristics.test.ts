/**
 * no-secrets' heuristic rules and markers (validators/no-secrets/scripts/scan.ts): the guards of the URL, header and
 * assignment rules, the allow markers, where the heuristics are off, and how far a private key header looks for its
 * material. Each case sits on the edge a guard draws: one side flagged, the other not.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Added } from '../../validators/no-secrets/scripts/added-lines.ts';
import { loadGitleaks } from '../../validators/no-secrets/scripts/gitleaks.ts';
import { scanAdded, scanLine, type ScanOptions } from '../../validators/no-secrets/scripts/scan.ts';
import { tempDir } from '../support/run-avp.ts';
import { randomText } from './no-secrets-samples.ts';

const SRC: ScanOptions = { heuristics: true, keys: true };
const rules = (text: string, file = 'src/app.ts', opts = SRC, prev = '') =>
  scanLine(file, { line: 3, text }, { prev, next: '' }, opts).map((v) => v.rule);
const VALUE = 'Hq7mZ2xK9vLp3Wn8';

describe('passwords in URLs', () => {
  test('six characters are enough, five are not', () => {
    expect(rules('const u = "postgres://app:Xq7z9K@db.acme.io/app";')).toEqual(['credentials-in-url']);
    expect(rules('const u = "postgres://app:Xq7z9@db.acme.io/app";')).toEqual([]);
  });
  test('a user-name word as the password is not one', () => {
    expect(rules('const u = "amqp://rabbit:username@mq.acme.io:5672";')).toEqual([]);
  });
});

describe('Authorization headers', () => {
  test('a placeholder or a low-entropy value is not a credential', () => {
    expect(rules('curl -H "Authorization: Bearer your-access-token-here" https://api.acme.io')).toEqual([]);
    expect(rules('curl -H "Authorization: Bearer aaaabbbbaaaabbbbcccc" https://api.acme.io')).toEqual([]);
    expect(rules(`curl -H "Authorization: Bearer ${VALUE}" https://api.acme.io`)).toEqual(['authorization-header']);
  });
});

describe('secret-like assignments', () => {
  test('lines up to 4,000 characters are judged, longer ones (generated code) are not', () => {
    const line = (length: number) => {
      const head = `const apiToken = "${VALUE}"; // `;
      return head + 'z'.repeat(length - head.length);
    };
    expect(rules(line(4000))).toEqual(['hardcoded-secret']);
    expect(rules(line(4001))).toEqual([]);
  });
  test('the name is looked for in the 80 characters before the value (a long type annotation in between)', () => {
    const type = 'Record<ServiceName|InternalServiceName>|ReadonlyArray<Descriptor>|null';
    const line = `token: ${type}${' '.repeat(80 - 'token: '.length - type.length - 2)}= "${VALUE}";`;
    expect(line.indexOf('"')).toBe(80);
    expect(rules(line)).toEqual(['hardcoded-secret']);
    expect(rules(line.replace('= "', ' = "'))).toEqual([]); // 81 characters away: only `oken` is in reach
  });
  test('a comparison, an argument list and a ternary are not assignments', () => {
    expect(rules(`if (retries.token > "${VALUE}") stop();`)).toEqual([]);
    expect(rules(`setHeader(API_TOKEN, "${VALUE}");`)).toEqual([]);
    expect(rules(`setHeader("API_TOKEN", "${VALUE}");`)).toEqual(['hardcoded-secret']);
    expect(rules(`const t = useEnv ? process.env.TOKEN : "${VALUE}";`)).toEqual([]);
    expect(rules(`const t = { TOKEN: "${VALUE}" };`)).toEqual(['hardcoded-secret']);
  });
  test('escapes are read before judging: `\\"` is one character of the value', () => {
    expect(rules(String.raw`const password = "Zq8\"v\"L\"m";`)).toEqual(['hardcoded-secret']);
  });
  test('heuristics are off in test paths; a comment is judged unless it shows an example', () => {
    expect(rules(`const password = "${VALUE}";`, 'tests/app.test.ts', { heuristics: false, keys: false })).toEqual([]);
    expect(rules(`// password = "${VALUE}"`)).toEqual(['hardcoded-secret']);
    expect(rules(`const password = "${VALUE}"; // format: base62`)).toEqual(['hardcoded-secret']);
    expect(rules(`// for instance: password = "${VALUE}"`)).toEqual([]);
  });
});

describe('markers and removed noise', () => {
  test('an allow marker on the line before counts only on a comment line', () => {
    const line = `const password = "${VALUE}";`;
    expect(rules(line, 'src/app.ts', SRC, '// avp:allow-secret: test vector')).toEqual([]);
    expect(rules(line, 'src/app.ts', SRC, 'const a = 1; // avp:allow-secret')).toEqual(['hardcoded-secret']);
  });
  test('the marker line must be the one right before (by line number)', () => {
    const added: Added[] = [
      { line: 1, text: '// avp:allow-secret' },
      { line: 5, text: `const password = "${VALUE}";` },
    ];
    expect(scanAdded('src/a.ts', added, SRC).violations.map((v) => v.rule)).toEqual(['hardcoded-secret']);
  });
  test('a data URI or SOPS value removed from a line leaves a gap: the text around it does not join', () => {
    const tail = `-${randomText(77)(40)}`;
    expect(rules(`x = "sk-ant-api03data:image/png;base64,QUJD${tail}"`)).toEqual([]);
    expect(rules(`x = "sk-ant-api03ENC[AES256_GCM,data:QUJD]${tail}"`)).toEqual([]);
    expect(rules(`x = "sk-ant-api03${tail}"`)).toEqual(['anthropic-key']);
  });
  test('a SOPS value is ciphertext: whatever its data spells is not reported', () => {
    const key = 'AKIA4QWERTZU7PLMNB3X';
    const sops = `ENC[AES256_GCM,data:${key},iv:q7x0aLkz2Vn5tYw8RbC1dE==,tag:Zm9vYmFyYmF6cXV4cXV1eA==,type:str]`;
    expect(rules(`aws_key: ${sops}`, 'deploy/secrets.yaml')).toEqual([]);
    // the same key in the clear is one
    expect(rules(`aws_key: ${key}`, 'deploy/secrets.yaml')).toEqual(['aws-access-key-id']);
  });
  test('a private key in a test path is test data', () => {
    const b64 = Buffer.from(`-----BEGIN PRIVATE KEY-----\n${'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw'}\n`).toString(
      'base64',
    );
    expect(rules(`k = "${b64}"`)).toEqual(['private-key']);
    expect(rules(`k = "${b64}"`, 'test/keys.ts', { heuristics: false, keys: false })).toEqual([]);
  });
});

describe('a private key header and its material', () => {
  const HEADER = '-----BEGIN PGP PRIVATE KEY BLOCK-----';
  const MATERIAL = 'lQdGBGVp2QcBEADKx7ZbM1s2nQ8cYvJpW3tR6uA9eF0gH4iK5lL7mN2oP3qRsTu';
  const keyRules = (added: Added[]) => scanAdded('deploy/key.asc', added, SRC).violations.map((v) => v.rule);
  const block = (gap: number, numbered = true): Added[] => [
    { ...(numbered ? { line: 1 } : {}), text: HEADER },
    ...Array.from({ length: gap }, (_, k) => ({ ...(numbered ? { line: 2 + k } : {}), text: '' })),
    { ...(numbered ? { line: 2 + gap } : {}), text: MATERIAL },
  ];
  test('material up to four lines after the header counts (armor headers and a blank line between)', () => {
    expect(keyRules(block(3))).toEqual(['private-key']);
    expect(keyRules(block(4))).toEqual([]);
  });
  test('lines without numbers (a fragment of an edit) are read as adjacent', () => {
    expect(keyRules(block(1, false))).toEqual(['private-key']);
  });
  test('a line that is not the next one in the file is not the material', () => {
    expect(
      keyRules([
        { line: 1, text: HEADER },
        { line: 9, text: MATERIAL },
      ]),
    ).toEqual([]);
  });
  test('the header in a string: the material on the next line, not the quote after it', () => {
    const added: Added[] = [
      { line: 1, text: 'const key = "-----BEGIN RSA PRIVATE KEY-----\\n" +' },
      { line: 2, text: `  "${MATERIAL}\\n" +` },
    ];
    expect(keyRules(added)).toEqual(['private-key']);
  });
  test('fewer than 40 characters of material, or a redacted one, is not a key', () => {
    expect(
      keyRules([
        { line: 1, text: HEADER },
        { line: 2, text: MATERIAL.slice(0, 36) },
      ]),
    ).toEqual([]);
    expect(
      keyRules([
        { line: 1, text: HEADER },
        { line: 2, text: `${MATERIAL}...` },
      ]),
    ).toEqual([]);
  });
});

describe("the project's gitleaks rules beside the built-in ones", () => {
  const project = (toml: string) => {
    const root = tempDir('avp-gitleaks-scan-');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, '.gitleaks.toml'), toml);
    return { ...SRC, gitleaks: loadGitleaks(root) };
  };
  const akia = 'AKIAQ3ZP7XK2M4N5B6C7';
  test('a finding right after or right before a token is its own; one on the token is not', () => {
    const opts = project(`[[rules]]\nid = "ref"\nregex = '''[:]\\d{6}|\\d{6}[:]|ghp_\\w+'''\n`);
    expect(rules(`x = "${akia}:482913"`, 'src/a.ts', opts)).toEqual(['aws-access-key-id', 'gitleaks:ref']);
    expect(rules(`x = "482913:${akia}"`, 'src/a.ts', opts)).toEqual(['aws-access-key-id', 'gitleaks:ref']);
    expect(rules(`x = "ghp_${'Kq8vLm3xW7'.repeat(4).slice(0, 36)}"`, 'src/a.ts', opts)).toEqual(['github-token']);
  });
  test('an allowlist regex that matches the empty string does not allow a key block', () => {
    const opts = project(`[allowlist]\nregexes = ['''^x*$''']\n`);
    const lines: Added[] = [
      { line: 1, text: '-----BEGIN EC PRIVATE KEY-----' },
      { line: 2, text: 'MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oxBSKRd1o4SboAoGCCqGSM49' },
    ];
    expect(scanAdded('deploy/ec.pem', lines, opts).violations.map((v) => v.rule)).toEqual(['private-key']);
  });
});
