import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECT_FIXTURES, referenceRegistry, zipDir, type ReferenceRegistry } from './reference-registry.ts';
import { installedState, sandbox } from './registry-client-helpers.ts';

/**
 * avp's client against a loopback registry that answers exactly as the reference implementation's registry does
 * (every answer is checked against the reference client's types before it is sent): a capitalised `type`, RuleSets
 * in the reference's current format (`{{version}}`, no severity or trigger), the fuzzy `/api/search`, an unpublish
 * that deletes, and MIRDAN_REGISTRY_URL / MIRDAN_TOKEN.
 */

const FIXTURES = DIALECT_FIXTURES;

let reg: ReferenceRegistry;
beforeAll(() => {
  reg = referenceRegistry();
  const current = zipDir(join(FIXTURES, 'current/code-quality'), 'code-quality');
  reg.add('code-quality', '1.0.0', current, { type: 'Validator' });
  reg.add('legacy-quality', '1.0.0', zipDir(join(FIXTURES, 'legacy/code-quality'), 'code-quality'), {
    type: 'VALIDATOR',
  });
  reg.add('no-integrity', '2.0.0', current, { type: 'validator', integrity: false });
});
afterAll(() => reg.stop());

describe('avp against the reference registry dialect', () => {
  test('a current-format RuleSet ("Validator", {{version}}, no severity/trigger) installs at the registry version', async () => {
    const s = sandbox(reg.url);
    const r = await s.avp(['add', 'code-quality', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lock = JSON.parse(readFileSync(s.userLock, 'utf8'));
    expect(lock.packages['code-quality']).toMatchObject({ version: '1.0.0', source: 'registry', registry: reg.url });
    expect(existsSync(join(s.userValidators, 'code-quality/rules/naming/no-commented-code.md'))).toBe(true);
    const list = await s.avp(['list', '--json']);
    const rules = JSON.parse(list.stdout).validators.filter((v: any) => v.name === 'code-quality');
    const by = Object.fromEntries(rules.map((v: any) => [v.rule, v]));
    // Rules in subfolders of rules/ load too; severity/trigger default as the reference's unless a rule sets one.
    expect(Object.keys(by).sort()).toEqual(['function-length', 'missing-docs', 'no-commented-code']);
    expect(by['function-length']).toMatchObject({ severity: 'warn', trigger: 'PostToolUse', version: '1.0.0' });
    expect(by['missing-docs'].severity).toBe('error');
    expect(by['function-length'].files).toContain('*.ts');
  });

  test('an all-caps type is still a validator; an exact version installs the registry package', async () => {
    const s = sandbox(reg.url);
    const r = await s.avp(['add', 'legacy-quality@1.0.0']);
    // The archive inside is named code-quality: refused for that, never for its type's casing ("VALIDATOR").
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('holds "code-quality", not "legacy-quality"');
    expect(r.stderr).not.toContain('not a validator');
    const s2 = sandbox(reg.url);
    const ok = await s2.avp(['add', 'code-quality@1.0.0']);
    expect(ok.code, ok.stderr).toBe(0);
  });

  test('a version served without integrity is refused, naming the registry and the requirement', async () => {
    const s = sandbox(reg.url);
    const before = installedState(s.avpHome);
    const r = await s.avp(['add', 'no-integrity']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${reg.url} sent no integrity for no-integrity@2.0.0`);
    expect(r.stderr).toContain('avp requires a sha512 integrity');
    expect(installedState(s.avpHome)).toEqual(before);
  });

  test('avp search uses /api/search when offered and shows validators only', async () => {
    const s = sandbox(reg.url);
    const mark = reg.seen.length;
    const r = await s.avp(['search', 'secrets', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.endpoint).toBe('/api/search');
    expect(out.packages.map((p: any) => p.name)).toEqual(['no-secrets', 'secrets-audit']);
    expect(out.packages[1].qualifiedName).toBe('acme/rules/secrets-audit');
    expect(reg.seen.slice(mark).map((x) => x.path.split('?')[0])).toEqual(['/api/search']);
    const table = await s.avp(['search', 'secrets']);
    expect(table.stdout).toMatch(/no-secrets\s+-\s+12\s+Blocks secrets/);
  });

  test('avp search falls back to /api/packages without /api/search, and uses it for --tag', async () => {
    const s = sandbox(reg.url);
    const tagged = await s.avp(['search', 'secrets', '--tag', 'security', '--json']);
    expect(JSON.parse(tagged.stdout).endpoint).toBe('/api/packages');
    reg.setOfferSearch(false);
    try {
      const r = await s.avp(['search', 'secrets', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.endpoint).toBe('/api/packages');
      expect(out.packages[0]).toMatchObject({ name: 'no-secrets', latest: '1.2.0', type: 'validator' });
    } finally {
      reg.setOfferSearch(true);
    }
  });

  test('an unpublish the registry answers with deleted: true is reported as a deletion, not a yank', async () => {
    const s = sandbox(reg.url);
    const r = await s.avp(['yank', 'code-quality@1.0.0', '--json'], { env: { AVP_TOKEN: 't0k' } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ deleted: true, yanked: false });
    const text = await s.avp(['yank', 'code-quality@1.0.0'], { env: { AVP_TOKEN: 't0k' } });
    expect(text.stderr).toContain('deleted code-quality@1.0.0 permanently');
  });

  test('MIRDAN_REGISTRY_URL and MIRDAN_TOKEN are used after avp own settings, the token only for its registry', async () => {
    const s = sandbox(); // no AVP_REGISTRY_URL
    let mark = reg.seen.length;
    const r = await s.avp(['yank', 'x@1.0.0'], { env: { MIRDAN_REGISTRY_URL: reg.url, MIRDAN_TOKEN: 'mirdan-tok' } });
    expect(r.code, r.stderr).toBe(0);
    expect(reg.seen.slice(mark)).toEqual([
      { method: 'DELETE', path: '/api/packages/x/1.0.0', auth: 'Bearer mirdan-tok' },
    ]);
    // avp's own variables win over the reference's.
    mark = reg.seen.length;
    await s.avp(['yank', 'x@1.0.0'], {
      env: {
        AVP_REGISTRY_URL: reg.url,
        AVP_TOKEN: 'avp-tok',
        MIRDAN_REGISTRY_URL: 'http://127.0.0.1:9',
        MIRDAN_TOKEN: 'm',
      },
    });
    expect(reg.seen.slice(mark).map((x) => x.auth)).toEqual(['Bearer avp-tok']);
    // MIRDAN_TOKEN belongs to MIRDAN_REGISTRY_URL (or the public registry): another registry never receives it.
    mark = reg.seen.length;
    const other = await s.avp(['yank', 'x@1.0.0'], {
      env: { AVP_REGISTRY_URL: reg.url, MIRDAN_REGISTRY_URL: 'http://127.0.0.1:9', MIRDAN_TOKEN: 'leak-me' },
    });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('not logged in');
    expect(reg.seen.slice(mark).some((x) => x.auth?.includes('leak-me'))).toBe(false);
    const search = await s.avp(['search', 'secrets', '--json'], { env: { MIRDAN_REGISTRY_URL: reg.url } });
    expect(JSON.parse(search.stdout).endpoint).toBe('/api/search');
  });

  test('publishing a RuleSet whose version is the unfilled {{version}} template is refused with the fix', async () => {
    const s = sandbox(reg.url);
    const r = await s.avp(['publish', join(FIXTURES, 'current/code-quality'), '--dry-run'], {
      env: { AVP_TOKEN: 't' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"{{version}}" is an unfilled release template');
    expect(r.stderr).toContain('replace it with the version you release');
  });
});
