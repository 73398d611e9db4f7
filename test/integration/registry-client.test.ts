/**
 * The registry client driven through `dist/avp` against a real loopback registry (test/support/hostile-registry.ts in
 * its honest mode): resolution, scopes and lockfiles, precedence, update / outdated / remove, install --frozen, and
 * concurrent adds.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { GOOD_TOKEN, startHostileRegistry, type HostileRegistry } from '../support/hostile-registry.ts';
import { AVP_BIN } from '../support/run-avp.ts';
import { validatorZip } from '../unit/registry-client/zip-forge.ts';
import { leftovers, lock, sandbox } from './registry-client-helpers.ts';

let reg: HostileRegistry;

beforeAll(async () => {
  reg = await startHostileRegistry();
  for (const v of ['1.0.0', '1.2.0', '2.0.0']) {
    reg.serve('demo', {
      version: v,
      bytes: validatorZip(
        'demo',
        [[`demo/rules/v${v.replace(/\./g, '-')}.md`, `---\nname: v${v.replace(/\./g, '-')}\n---\nversion ${v}\n`]],
        v,
      ),
    });
  }
  for (let i = 0; i < 4; i++) reg.serve(`multi-${i}`, { version: '1.0.0', bytes: validatorZip(`multi-${i}`) });
  reg.serve('yanky', { version: '1.0.0', bytes: validatorZip('yanky') });
});

afterAll(() => reg.close());

describe('avp add from a registry', () => {
  test('user scope by default: directory, lockfile with the earlier shape plus source, JSON output', async () => {
    const sb = sandbox(reg.url);
    const r = await sb.avp(['add', 'demo', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      name: 'demo',
      version: '2.0.0',
      source: 'registry',
      dir: join(sb.userValidators, 'demo'),
    });
    expect(readFileSync(join(sb.userValidators, 'demo', 'VALIDATOR.md'), 'utf8')).toContain('name: demo');
    const entry = lock(sb.userLock).packages.demo!;
    expect(entry).toMatchObject({
      version: '2.0.0',
      source: 'registry',
      requested: 'latest',
      resolved: `${reg.url}/api/packages/demo/2.0.0/download`,
    });
    expect(entry.integrity).toMatch(/^sha512-/);
    expect(JSON.parse(readFileSync(sb.userLock, 'utf8'))).toMatchObject({ version: '1.0.0', lockfileVersion: 1 });
    expect(existsSync(sb.projectLock)).toBe(false);
    expect(leftovers(sb.avpHome)).toEqual([]);
  });

  test('several specs at once', async () => {
    const sb = sandbox(reg.url);
    const r = await sb.avp(['add', 'multi-2', 'multi-3', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { name: string }) => x.name)).toEqual(['multi-2', 'multi-3']);
    expect(Object.keys(lock(sb.userLock).packages).sort()).toEqual(['multi-2', 'multi-3']);
  });

  test('ranges and exact versions', async () => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['add', 'demo@^1'])).code).toBe(0);
    expect(lock(sb.userLock).packages.demo).toMatchObject({ version: '1.2.0', requested: '^1' });
    expect((await sb.avp(['add', 'demo@1.0.0'])).code).toBe(0);
    expect(lock(sb.userLock).packages.demo!.version).toBe('1.0.0');
    expect(readdirSync(join(sb.userValidators, 'demo', 'rules')).sort()).toEqual(['one.md', 'v1-0-0.md']);
    const bad = await sb.avp(['add', 'demo@^3']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('no version of demo satisfies ^3 (available: 1.0.0, 1.2.0, 2.0.0)');
  });

  test('project scope writes the project root lockfile (not the cwd) and user installs warn when the project wins', async () => {
    const sb = sandbox(reg.url);
    const r = await sb.avp(['add', 'demo', '--project']);
    expect(r.code).toBe(0);
    expect(lock(sb.projectLock).packages.demo!.version).toBe('2.0.0');
    expect(existsSync(join(sb.project, '.avp', 'validators', 'demo', 'VALIDATOR.md'))).toBe(true);
    expect(existsSync(join(sb.project, 'src', 'deep', '.avp'))).toBe(false);
    const user = await sb.avp(['add', 'demo@1.0.0']);
    expect(user.code).toBe(0);
    expect(user.stderr).toContain('the project has its own demo');
    expect(user.stderr).toContain('it wins over this user install');
  });

  test('the precedence warning also finds a nested project validator of that name', async () => {
    const sb = sandbox(reg.url);
    const nested = join(sb.project, '.avp', 'validators', 'team', 'my-demo.md');
    mkdirSync(join(nested, '..'), { recursive: true });
    writeFileSync(
      nested,
      '---\nname: demo\ndescription: The team demo.\nseverity: warn\ntrigger: PostToolUse\n---\nCheck.\n',
    );
    const r = await sb.avp(['add', 'demo', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).shadowedBy).toBe(nested);
    expect(r.stderr).toContain(`the project has its own demo (${nested})`);
    expect(existsSync(join(sb.project, '.avp', 'cache'))).toBe(false);
  });

  test('a same-named validator avp did not install is not replaced without --force', async () => {
    const sb = sandbox(reg.url);
    mkdirSync(join(sb.userValidators, 'demo'), { recursive: true });
    writeFileSync(join(sb.userValidators, 'demo', 'VALIDATOR.md'), 'mine');
    const r = await sb.avp(['add', 'demo']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('was not installed by avp');
    expect(readFileSync(join(sb.userValidators, 'demo', 'VALIDATOR.md'), 'utf8')).toBe('mine');
    expect((await sb.avp(['add', 'demo', '--force'])).code).toBe(0);
    expect(readFileSync(join(sb.userValidators, 'demo', 'VALIDATOR.md'), 'utf8')).toContain('name: demo');
  });
});

describe('remove, update, outdated', () => {
  test('update stays within the recorded range; --latest leaves it; outdated shows wanted and latest', async () => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['add', 'demo@~1.0.0'])).code).toBe(0);
    const out = await sb.avp(['outdated', '--json']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual([
      { name: 'demo', scope: 'user', current: '1.0.0', wanted: '1.0.0', latest: '2.0.0', source: 'registry' },
    ]);
    const table = await sb.avp(['outdated']);
    expect(table.stdout).toMatch(/demo\s+user\s+1\.0\.0\s+1\.0\.0\s+2\.0\.0/);
    const same = await sb.avp(['update', '--json']);
    expect(JSON.parse(same.stdout)[0]).toMatchObject({ name: 'demo', status: 'current', from: '1.0.0' });
    const latest = await sb.avp(['update', 'demo', '--latest', '--json']);
    expect(JSON.parse(latest.stdout)[0]).toMatchObject({ status: 'updated', from: '1.0.0', to: '2.0.0' });
    expect(lock(sb.userLock).packages.demo).toMatchObject({ version: '2.0.0', requested: 'latest' });
    expect(JSON.parse((await sb.avp(['outdated', '--json'])).stdout)).toEqual([]);
  });

  test('update never downgrades (the installed version was yanked since)', async () => {
    const sb = sandbox(reg.url);
    reg.serve('yank-down', { version: '1.0.0', bytes: validatorZip('yank-down', [], '1.0.0') });
    reg.serve('yank-down', { version: '1.1.0', bytes: validatorZip('yank-down', [], '1.1.0') });
    expect((await sb.avp(['add', 'yank-down'])).code).toBe(0);
    reg.serve('yank-down', { version: '1.1.0', bytes: validatorZip('yank-down', [], '1.1.0'), yanked: true });
    const r = await sb.avp(['update', 'yank-down', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ status: 'skipped', from: '1.1.0', to: '1.1.0' });
    expect(lock(sb.userLock).packages['yank-down']!.version).toBe('1.1.0');
  });

  test('remove deletes the directory and the lock entry; removing again says where to look', async () => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['add', 'demo', '--project'])).code).toBe(0);
    const r = await sb.avp(['remove', 'demo', '--project']);
    expect(r.code).toBe(0);
    expect(existsSync(join(sb.project, '.avp', 'validators', 'demo'))).toBe(false);
    expect(lock(sb.projectLock).packages).toEqual({});
    const again = await sb.avp(['remove', 'demo']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not installed in the user scope');
  });
});

describe('avp install [--frozen]', () => {
  test('restores the project lockfile exactly; --frozen refuses a modified tree; yanked pins still install', async () => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['add', 'demo@1.2.0', '--project'])).code).toBe(0);
    expect((await sb.avp(['add', 'multi-0', '--project'])).code).toBe(0);
    expect((await sb.avp(['add', 'yanky', '--project'])).code).toBe(0);
    const yank = await sb.avp(['yank', 'yanky@1.0.0', '--json'], { env: { AVP_TOKEN: GOOD_TOKEN } });
    expect(yank.code).toBe(0);
    expect(JSON.parse(yank.stdout)).toMatchObject({ name: 'yanky', version: '1.0.0', yanked: true });
    expect((await sb.avp(['add', 'yanky'])).stderr).toContain('404');
    const lockText = readFileSync(sb.projectLock, 'utf8');
    rmSync(join(sb.project, '.avp', 'validators'), { recursive: true });

    const frozen = await sb.avp(['install', '--frozen', '--json']);
    expect(frozen.code).toBe(0);
    expect(JSON.parse(frozen.stdout)).toEqual([
      { name: 'demo', version: '1.2.0', action: 'installed' },
      { name: 'multi-0', version: '1.0.0', action: 'installed' },
      { name: 'yanky', version: '1.0.0', action: 'installed' },
    ]);
    expect(readFileSync(sb.projectLock, 'utf8')).toBe(lockText);
    expect(existsSync(join(sb.project, '.avp', 'validators', 'demo', 'rules', 'v1-2-0.md'))).toBe(true);

    writeFileSync(join(sb.project, '.avp', 'validators', 'demo', 'VALIDATOR.md'), 'tampered');
    const refused = await sb.avp(['install', '--frozen']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('installed validators differ from');
    expect(refused.stderr).toContain('demo');
    expect(readFileSync(join(sb.project, '.avp', 'validators', 'demo', 'VALIDATOR.md'), 'utf8')).toBe('tampered');

    // The tampered copy is an edit avp did not make: replaced only on --force (the user's work is never lost silently).
    const kept = await sb.avp(['install']);
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain('edited after avp installed demo');
    expect(readFileSync(join(sb.project, '.avp', 'validators', 'demo', 'VALIDATOR.md'), 'utf8')).toBe('tampered');
    const restored = await sb.avp(['install', '--force', '--json']);
    expect(JSON.parse(restored.stdout)).toEqual([
      { name: 'demo', version: '1.2.0', action: 'replaced' },
      { name: 'multi-0', version: '1.0.0', action: 'unchanged' },
      { name: 'yanky', version: '1.0.0', action: 'unchanged' },
    ]);
    expect(readFileSync(join(sb.project, '.avp', 'validators', 'demo', 'VALIDATOR.md'), 'utf8')).toContain(
      'name: demo',
    );
    expect(readFileSync(sb.projectLock, 'utf8')).toBe(lockText);
  });

  test('a lockfile whose integrity the registry no longer matches is refused', async () => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['add', 'multi-1', '--project'])).code).toBe(0);
    const lf = JSON.parse(readFileSync(sb.projectLock, 'utf8'));
    lf.packages['multi-1'].integrity = `sha512-${Buffer.alloc(64).toString('base64')}`;
    writeFileSync(sb.projectLock, JSON.stringify(lf));
    rmSync(join(sb.project, '.avp', 'validators'), { recursive: true });
    // A changed lockfile is installed from only once the user accepted it.
    expect((await sb.avp(['install', '--frozen'])).stderr).toContain('avp accept');
    expect((await sb.avp(['accept'])).code).toBe(0);
    const r = await sb.avp(['install', '--frozen']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('integrity check failed');
    expect(existsSync(join(sb.project, '.avp', 'validators', 'multi-1'))).toBe(false);
  });

  test('no lockfile: a clear error', async () => {
    const r = await sandbox(reg.url).avp(['install']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no lockfile at');
  });
});

describe('concurrent avp add', () => {
  test('a killed install leaves a lock and a staging folder behind: the next add recovers', async () => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['add', 'demo@1.0.0'])).code).toBe(0);
    const dead = Bun.spawnSync(['true']).pid;
    writeFileSync(join(sb.avpHome, '.install.lock'), JSON.stringify({ pid: dead, host: hostname(), at: Date.now() }));
    const stale = join(sb.avpHome, '.staging', 'demo-killed');
    mkdirSync(join(stale, 'demo'), { recursive: true });
    writeFileSync(join(stale, 'demo', 'VALIDATOR.md'), 'half written');
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(stale, old, old);
    const r = await sb.avp(['add', 'demo@1.2.0']);
    expect(r.code).toBe(0);
    expect(lock(sb.userLock).packages.demo!.version).toBe('1.2.0');
    expect(leftovers(sb.avpHome)).toEqual([]);
  });

  test('SIGKILL at random moments: the directory and the lockfile always agree on the old or the new version', async () => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['add', 'demo@1.0.0'])).code).toBe(0);
    for (let i = 0; i < 8; i++) {
      const target = i % 2 ? '1.0.0' : '1.2.0';
      const proc = Bun.spawn([AVP_BIN, 'add', `demo@${target}`], {
        cwd: sb.project,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: sb.home,
          AVP_HOME: sb.avpHome,
          AVP_REGISTRY_URL: reg.url,
        },
        stdout: 'ignore',
        stderr: 'ignore',
      });
      await Bun.sleep(10 + Math.random() * 120);
      proc.kill('SIGKILL');
      await proc.exited;
      const version = lock(sb.userLock).packages.demo!.version;
      expect(['1.0.0', '1.2.0']).toContain(version);
      // Killed inside the commit (microseconds long): a journal is left and the next install rolls back first.
      const staging = join(sb.avpHome, '.staging');
      const interrupted =
        existsSync(staging) && readdirSync(staging).some((d) => existsSync(join(staging, d, 'journal.json')));
      if (!interrupted)
        expect(readdirSync(join(sb.userValidators, 'demo', 'rules')).sort()).toEqual([
          'one.md',
          `v${version.replace(/\./g, '-')}.md`,
        ]);
    }
    // Whatever was left (a lock of a dead process, staging folders) does not block the next install.
    expect((await sb.avp(['add', 'demo@1.2.0'])).code).toBe(0);
    expect(lock(sb.userLock).packages.demo!.version).toBe('1.2.0');
    expect(readdirSync(join(sb.userValidators, 'demo', 'rules')).sort()).toEqual(['one.md', 'v1-2-0.md']);
    expect(leftovers(sb.avpHome)).toEqual([]);
  });

  test('same and different validators at once leave a consistent directory and lockfile', async () => {
    const sb = sandbox(reg.url);
    const specs = ['demo', 'demo', 'demo@1.0.0', 'multi-0', 'multi-1', 'multi-2', 'multi-3', 'multi-0'];
    const runs = await Promise.all(specs.map((s) => sb.avp(['add', s])));
    for (const r of runs) expect(r.stderr + r.code).toMatch(/added .*0$/s);
    const lf = lock(sb.userLock);
    expect(Object.keys(lf.packages).sort()).toEqual(['demo', 'multi-0', 'multi-1', 'multi-2', 'multi-3']);
    expect(readdirSync(sb.userValidators).sort()).toEqual(['demo', 'multi-0', 'multi-1', 'multi-2', 'multi-3']);
    // Whichever demo won, the directory is that version's tree.
    const demoVersion = lf.packages.demo!.version;
    const rules = readdirSync(join(sb.userValidators, 'demo', 'rules')).sort();
    expect(rules).toEqual(['one.md', `v${demoVersion.replace(/\./g, '-')}.md`]);
    expect(leftovers(sb.avpHome)).toEqual([]);
    const frozen = await sb.avp(['install', '--frozen', '--user', '--json']);
    expect(frozen.code).toBe(0);
    expect(JSON.parse(frozen.stdout).every((r: { action: string }) => r.action === 'unchanged')).toBe(true);
  });
});
