import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { DIALECT_FIXTURES, referenceRegistry, zipDir, type ReferenceRegistry } from './reference-registry.ts';
import { installedState, leftovers, sandbox } from './registry-client-helpers.ts';
import { packageZip, zipOf } from './registry-server-support.ts';

/**
 * avp's client against the loopback registry answering in the reference client's types: version ranges, a login
 * made with the reference client, a registry named on purpose that does not answer, a token check redirected to
 * another origin, a slow download, and one download per `avp add`.
 */

let reg: ReferenceRegistry;
/** A script validator: needs no judge, so `avp add` without any judge checks it and installs it. */
const scriptZip = (name: string, version: string) =>
  zipOf(name, {
    'VALIDATOR.md': `---\nname: ${name}\ndescription: Fails when a TODO is left in\nseverity: error\ntrigger: PostToolUse\nscript: scripts/check.sh\nmetadata:\n  version: "${version}"\n---\n\nLeave no TODO behind.\n`,
    'scripts/check.sh': '#!/bin/sh\nexit 0\n',
  });

beforeAll(() => {
  reg = referenceRegistry();
  for (const v of ['1.0.0', '1.0.4', '1.1.0', '2.0.0']) reg.add('ranged', v, packageZip('ranged', v));
  reg.add('scripted', '1.0.0', scriptZip('scripted', '1.0.0'));
  // As the reference's registry serves them: the release template unfilled, the version in the registry's record.
  for (const name of ['code-hygiene', 'manifests'])
    reg.add(name, '2.3.0', zipDir(join(DIALECT_FIXTURES, 'current', name), name));
  // Random text: the archive must stay about 1 KiB after deflate, so that trickling it takes seconds.
  const noise = Buffer.from(crypto.getRandomValues(new Uint8Array(600))).toString('base64');
  reg.add('slow', '1.0.0', packageZip('slow', '1.0.0', { description: `Slow ${noise}` }));
});
afterAll(() => reg.stop());

describe('avp against the reference dialect: versions, logins, unreachable registries', () => {
  test('RuleSets whose rules set match, supersedes and tool install; avp says which rules it will not run', async () => {
    const s = sandbox(reg.url);
    const r = await s.avp(['add', 'code-hygiene']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('code-hygiene: 2 tool rules not run');
    expect(r.stderr).toContain('the prompt rules they supersede run instead');
    const m = await s.avp(['add', 'manifests', '--json']);
    expect(m.code, m.stderr).toBe(0);
    expect(JSON.parse(m.stdout).notRun).toEqual([
      { id: 'manifests/leftover-crates', why: 'tool rule: avp runs no tool programs (cargo)' },
    ]);
    const list = JSON.parse((await s.avp(['list', '--json'])).stdout).validators as any[];
    const row = (id: string) => list.find((v) => v.id === id);
    expect(row('code-hygiene/long-functions-python')).toMatchObject({
      version: '2.3.0',
      judge: 'tool',
      supersedes: ['long-functions', 'tangled-logic'],
      ruleMatch: { files: ['**/*.py'] },
    });
    expect(row('code-hygiene/long-functions').notRun).toBeUndefined();
    expect(row('code-hygiene/test-names').ruleMatch.files).toContain('*.test.ts');
  });

  test('a range resolves through the version list to the highest match', async () => {
    const s = sandbox(reg.url);
    for (const [spec, want] of [
      ['ranged@^1.0', '1.1.0'],
      ['ranged@~1.0.0', '1.0.4'],
      ['ranged@1.x', '1.1.0'],
      ['ranged@v1.0.0', '1.0.0'],
    ] as const) {
      const r = await s.avp(['add', spec, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).version).toBe(want);
    }
  });

  test("the reference client's login (~/.mirdan/credentials, MIRDAN_CREDENTIALS_PATH) serves its registry only", async () => {
    reg.knobs.tokens.add('ref-tok-123456');
    const s = sandbox(reg.url);
    mkdirSync(join(s.home, '.mirdan'));
    const creds = { registry: reg.url, token: 'ref-tok-123456', email: 'ref@example.com', name: 'Ref User' };
    writeFileSync(join(s.home, '.mirdan/credentials'), JSON.stringify(creds, null, 2));
    const who = await s.avp(['whoami']);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toContain(`Ref User <ref@example.com> on ${reg.url}`);
    expect(who.stdout).toContain(".mirdan/credentials (the reference client's login)");
    const json = await s.avp(['whoami', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ name: 'Ref User', registry: reg.url });

    // MIRDAN_CREDENTIALS_PATH moves the file, as it does for the reference client.
    const moved = join(tempDir('avp-mirdan-'), 'creds.json');
    writeFileSync(moved, JSON.stringify(creds));
    const s2 = sandbox(reg.url);
    const who2 = await s2.avp(['whoami'], { env: { MIRDAN_CREDENTIALS_PATH: moved } });
    expect(who2.code, who2.stderr).toBe(0);
    expect(who2.stdout).toContain(`token from ${moved}`);

    // The file names another registry: the token never goes to this one.
    writeFileSync(moved, JSON.stringify({ ...creds, registry: 'https://registry.example.org' }));
    const mark = reg.seen.length;
    const other = await s2.avp(['whoami'], { env: { MIRDAN_CREDENTIALS_PATH: moved } });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`not logged in to ${reg.url}`);
    expect(reg.seen.slice(mark).some((x) => x.auth?.includes('ref-tok'))).toBe(false);

    // avp's own login wins over the reference's file.
    reg.knobs.tokens.add('avp-tok-123456');
    mkdirSync(s.avpHome, { recursive: true });
    writeFileSync(join(s.avpHome, 'credentials'), JSON.stringify({ registry: reg.url, token: 'avp-tok-123456' }));
    const m2 = reg.seen.length;
    const own = await s.avp(['whoami']);
    expect(own.stdout).toContain('token from credentials file');
    expect(reg.seen.slice(m2).map((x) => x.auth)).toEqual(['Bearer avp-tok-123456']);
  });

  test('a registry named by --registry, AVP_REGISTRY_URL or MIRDAN_REGISTRY_URL that does not answer is an error', async () => {
    const down = 'http://127.0.0.1:9';
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['--registry', down], {}, '--registry'],
      [[], { AVP_REGISTRY_URL: down }, 'AVP_REGISTRY_URL'],
      [[], { MIRDAN_REGISTRY_URL: down }, 'MIRDAN_REGISTRY_URL'],
    ];
    for (const [flags, env, named] of cases) {
      const s = sandbox();
      const before = installedState(s.avpHome);
      // no-secrets is in avp's embedded catalog: before, it was installed from there with only a warning.
      const r = await s.avp(['add', 'no-secrets', ...flags], { env });
      expect(r.code, named).toBe(1);
      expect(r.stderr).toContain(`could not reach ${down}/api/packages/no-secrets/latest`);
      expect(r.stderr).toContain(`(the registry ${named} names); nothing was installed`);
      expect(r.stderr).toContain('avp add catalog:no-secrets');
      expect(installedState(s.avpHome)).toEqual(before);
      expect(leftovers(s.avpHome)).toEqual([]);
    }
  });

  test('avp login --token fails when the token check is redirected to another origin, and says where', async () => {
    const elsewhere = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => Response.json({ valid: true }) });
    const target = `http://127.0.0.1:${elsewhere.port}/api/auth/cli/verify`;
    reg.knobs.verifyRedirect = target;
    try {
      const s = sandbox(reg.url);
      const r = await s.avp(['login', '--token', 'some-token-123456']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`redirected to ${target}, another origin`);
      expect(r.stderr).not.toContain('logged in');
      expect(existsSync(join(s.avpHome, 'credentials'))).toBe(false);
    } finally {
      reg.knobs.verifyRedirect = undefined;
      elsewhere.stop(true);
    }
  });

  test('a slow download runs past the silence limit; a download past the deadline names the deadline', async () => {
    reg.knobs.trickleMs = 200; // ~1 KiB in 64-byte steps: about 3 s
    try {
      const s = sandbox(reg.url);
      const ok = await s.avp(['add', 'slow'], { env: { AVP_REGISTRY_SILENCE: '1' } });
      expect(ok.code, ok.stderr).toBe(0);
      const s2 = sandbox(reg.url);
      const late = await s2.avp(['add', 'slow'], { env: { AVP_REGISTRY_SILENCE: '1', AVP_REGISTRY_TIMEOUT: '1.5' } });
      expect(late.code).toBe(1);
      expect(late.stderr).toContain('/api/packages/slow/1.0.0/download did not finish within 2 s');
      expect(late.stderr).toContain('AVP_REGISTRY_TIMEOUT');
    } finally {
      reg.knobs.trickleMs = 0;
    }
  });

  test('avp add with no judge configured downloads the package once', async () => {
    const home = tempDir('avp-nojudge-');
    const before = reg.downloadsOf('scripted');
    const r = await runAvp(['add', 'scripted'], {
      env: { HOME: home, AVP_HOME: join(home, '.avp'), PATH: '/usr/bin:/bin', AVP_REGISTRY_URL: reg.url },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(reg.downloadsOf('scripted') - before).toBe(1);
    expect(readFileSync(join(home, '.avp/avp-lock.json'), 'utf8')).toContain('"scripted"');
  });
});
