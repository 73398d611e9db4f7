/**
 * `avp list` says where each validator came from (registry, catalog, file, git, url from the scope's lockfile;
 * `local` for hand-written ones), its version, and whether config disables it; lockfiles written before entries had
 * a `source` still read, list and restore. Through `dist/avp` with a loopback registry.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHostileRegistry, type HostileRegistry } from '../support/hostile-registry.ts';
import { tempDir } from '../support/run-avp.ts';
import { VALIDATOR_MD, validatorZip } from '../unit/registry-client/zip-forge.ts';
import { lock, sandbox, sandboxWithConfiguredRegistry, type Sandbox } from './registry-client-helpers.ts';

let reg: HostileRegistry;
let zipServer: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  reg = await startHostileRegistry();
  reg.serve('from-reg', { version: '1.2.0', bytes: validatorZip('from-reg', [], '1.2.0') });
  const zipped = validatorZip('from-url', [], '3.0.0');
  zipServer = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(zipped) });
});

afterAll(async () => {
  zipServer.stop(true);
  await reg.close();
});

interface Row {
  id: string;
  version?: string;
  scope: string;
  source: string;
  disabled: boolean;
  fallbackFrom?: string;
  resolved?: string;
}

async function listJson(sb: Sandbox, env: Record<string, string> = {}): Promise<Record<string, Row>> {
  const r = await sb.avp(['list', '--json'], { env });
  expect(r.code).toBe(0);
  return Object.fromEntries((JSON.parse(r.stdout).validators as Row[]).map((v) => [v.id, v]));
}

/** One of each: registry and url (project), catalog and a local directory (user), a hand-written one (project). */
async function populated(): Promise<Sandbox> {
  const sb = sandbox(reg.url);
  const ok = async (args: string[]) => expect((await sb.avp(args)).code).toBe(0);
  await ok(['add', 'from-reg', '--project']);
  await ok(['add', `http://127.0.0.1:${zipServer.port}/from-url.zip`, '--project']);
  await ok(['add', 'catalog:no-secrets']);
  const dir = join(tempDir('avp-rc-list-'), 'from-dir');
  mkdirSync(dir);
  writeFileSync(join(dir, 'VALIDATOR.md'), VALIDATOR_MD('from-dir', '"0.3.0"'));
  await ok(['add', dir]);
  // Hand-written: in the validators folder, in no lockfile (its declared version still shows).
  mkdirSync(join(sb.project, '.avp', 'validators', 'mine'), { recursive: true });
  writeFileSync(join(sb.project, '.avp', 'validators', 'mine', 'VALIDATOR.md'), VALIDATOR_MD('mine', '"0.0.1"'));
  return sb;
}

describe('avp list: version, source, disabled', () => {
  test('--json: each validator with its version, scope, source and disabled flag', async () => {
    const sb = await populated();
    writeFileSync(join(sb.project, 'avp.config.json'), JSON.stringify({ disabledValidators: ['from-url', 'mine'] }));
    const rows = await listJson(sb);
    expect(rows['from-reg/one']).toMatchObject({
      version: '1.2.0',
      scope: 'project',
      source: 'registry',
      disabled: false,
      resolved: `${reg.url}/api/packages/from-reg/1.2.0/download`,
    });
    expect(rows['from-url/one']).toMatchObject({ version: '3.0.0', source: 'url', disabled: true });
    expect(rows['no-secrets']).toMatchObject({ scope: 'user', source: 'catalog', disabled: false });
    expect(rows['no-secrets']!.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(rows['from-dir']).toMatchObject({ version: '0.3.0', scope: 'user', source: 'file' });
    expect(rows.mine).toMatchObject({ version: '0.0.1', scope: 'project', source: 'local', disabled: true });
    expect(rows.mine!.resolved).toBeUndefined();

    // The kill switch turns every validator off, and stderr says why.
    const off = await sb.avp(['list', '--json'], { env: { AVP_DISABLE: '1' } });
    expect((JSON.parse(off.stdout).validators as Row[]).every((v) => v.disabled)).toBe(true);
    expect(off.stderr).toContain('avp is turned off');
  });

  test('the table shows VERSION, SCOPE, SOURCE and STATUS per validator', async () => {
    const sb = await populated();
    writeFileSync(join(sb.project, 'avp.config.json'), JSON.stringify({ disabledValidators: ['from-reg'] }));
    const r = await sb.avp(['list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+VERSION\s+SCOPE\s+SOURCE\s+STATUS\s+TRIGGER\s+SEVERITY\s+JUDGE\s+MATCH$/);
    const row = (id: string) => lines.find((l) => l.startsWith(`${id} `)) ?? '';
    expect(row('from-reg/one')).toMatch(/^from-reg\/one\s+1\.2\.0\s+project\s+registry\s+disabled\s+PostToolUse/);
    expect(row('from-url/one')).toMatch(/^from-url\/one\s+3\.0\.0\s+project\s+url\s+on\s/);
    expect(row('mine')).toMatch(/^mine\s+0\.0\.1\s+project\s+local\s+on\s/);
    expect(row('from-dir')).toMatch(/^from-dir\s+0\.3\.0\s+user\s+file\s+on\s/);
    expect(row('no-secrets')).toMatch(/^no-secrets\s+\d+\.\d+\.\d+\s+user\s+catalog\s+on\s/);
  });

  test('a catalog copy that stood in for an unreachable registry is marked as a fallback', async () => {
    const sb = sandboxWithConfiguredRegistry('http://127.0.0.1:9');
    expect((await sb.avp(['add', 'no-secrets'])).code).toBe(0);
    expect((await listJson(sb))['no-secrets']).toMatchObject({ source: 'catalog', fallbackFrom: 'http://127.0.0.1:9' });
    expect((await sb.avp(['list'])).stdout).toMatch(/\nno-secrets\s+\S+\s+user\s+catalog \(fallback\)\s+on\s/);
  });

  test('a broken lockfile does not hide the validators: they list as local and stderr names the file', async () => {
    const sb = await populated();
    writeFileSync(sb.projectLock, '{ not json');
    const r = await sb.avp(['list', '--json']);
    expect(r.code).toBe(0);
    const rows = Object.fromEntries((JSON.parse(r.stdout).validators as Row[]).map((v) => [v.id, v]));
    expect(rows['from-reg/one']!.source).toBe('local');
    expect(rows['no-secrets']!.source).toBe('catalog');
    expect(r.stderr).toContain(`${sb.projectLock} is not valid JSON`);
  });
});

describe('a lockfile without source fields (the earlier client, or written by hand)', () => {
  test('reads with the source inferred from resolved: list shows it, install --frozen restores from it', async () => {
    const sb = await populated();
    const rmEverySource = (path: string) => {
      const lf = JSON.parse(readFileSync(path, 'utf8'));
      for (const e of Object.values(lf.packages) as Array<Record<string, unknown>>) delete e.source;
      writeFileSync(path, JSON.stringify(lf));
    };
    rmEverySource(sb.projectLock);
    rmEverySource(sb.userLock);
    const rows = await listJson(sb);
    // An https archive URL reads as a registry download: the earlier client installed from registries only.
    expect(['from-reg/one', 'from-url/one', 'no-secrets', 'from-dir'].map((id) => rows[id]!.source)).toEqual([
      'registry',
      'registry',
      'catalog',
      'file',
    ]);

    const projectLf = JSON.parse(readFileSync(sb.projectLock, 'utf8'));
    delete projectLf.packages['from-url'];
    writeFileSync(sb.projectLock, JSON.stringify(projectLf));
    rmSync(join(sb.project, '.avp', 'validators', 'from-reg'), { recursive: true });
    rmSync(join(sb.avpHome, 'validators', 'no-secrets'), { recursive: true });
    // The hand-edited lockfiles are the user's: accepted before installing from them.
    expect((await sb.avp(['accept'])).code).toBe(0);
    const p = await sb.avp(['install', '--frozen', '--json']);
    expect(p.code).toBe(0);
    expect(JSON.parse(p.stdout)).toEqual([{ name: 'from-reg', version: '1.2.0', action: 'installed' }]);
    const u = await sb.avp(['install', '--user', '--frozen', '--json']);
    expect(u.code).toBe(0);
    expect(JSON.parse(u.stdout)).toContainEqual(expect.objectContaining({ name: 'no-secrets', action: 'installed' }));
    // --frozen never writes the lockfile: still without source fields.
    expect(lock(sb.projectLock).packages['from-reg']!.source).toBeUndefined();
  });

  test('an entry without version, resolved or integrity is an error naming the file, the entry and the fix', async () => {
    const sb = sandbox(reg.url);
    mkdirSync(join(sb.project, '.avp'), { recursive: true });
    writeFileSync(sb.projectLock, JSON.stringify({ packages: { broken: { version: '1.0.0' } } }));
    const r = await sb.avp(['install', '--frozen']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${sb.projectLock}: entry "broken" has no string resolved, integrity`);
    expect(r.stderr).toContain('avp add broken');
  });
});
