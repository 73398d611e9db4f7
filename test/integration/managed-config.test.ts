/**
 * Mandatory validators: a managed config (here a scratch file named by `AVP_MANAGED_CONFIG`) requires validators and
 * forbids disabling them. Each test tries a way around the policy as a user or an agent would (the kill switch, the
 * disabled list in a file and in the environment, a lowered severity, an uninstalled validator) and checks that the
 * validator still runs and the answer says which policy refused what.
 */
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { BIN, KEY_FINDER, project, type Project } from './hook-support.ts';

function managed(policy: unknown): string {
  const file = join(tempDir('avp-managed-'), 'managed.json');
  writeFileSync(file, typeof policy === 'string' ? policy : JSON.stringify(policy, null, 2));
  return file;
}

function keyProject(): Project {
  const p = project();
  p.validator('no-keys', { match: { tools: ['Write', 'Edit'], files: ['src/**/*.ts'] } }, KEY_FINDER, 'check.ts');
  return p;
}

const WRITE = 'hook-input-PostToolUse-Write.json';

describe('managed config: mandatory validators', () => {
  test('without a managed policy the kill switch and the disabled list work (the baseline the policy removes)', async () => {
    const p = keyProject();
    expect((await p.hook(p.fixture(WRITE), { AVP_DISABLE: '1' })).stdout).toBe('{}\n');
    const off = await p.hook(p.fixture(WRITE), { AVP_DISABLED_VALIDATORS: 'no-keys' });
    expect(off.json?.decision).toBeUndefined();
  });

  test('AVP_DISABLE is refused: the validator still blocks, and the user is told which policy refused it', async () => {
    const p = keyProject();
    const file = managed({ requiredValidators: ['no-keys'] });
    const r = await p.hook(p.fixture(WRITE), { AVP_DISABLE: '1', AVP_MANAGED_CONFIG: file });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ decision: 'block', passed: false });
    expect(r.json.systemMessage).toContain(
      `AVP_DISABLE is ignored: the managed policy (${file}) forbids turning avp off`,
    );
    // The way out the answer offers is one this machine allows: never the kill switch the policy refuses.
    expect(r.json.reason).toContain("avp is required by this machine's managed policy");
    expect(r.json.reason).not.toContain('AVP_DISABLE=1');
    expect(r.json.systemMessage).not.toContain('AVP_DISABLE=1 turns avp off');
    const q = keyProject();
    const free = await q.hook(q.fixture(WRITE));
    expect(free.json.reason).toContain('To turn avp off: AVP_DISABLE=1');
  });

  test('"disabled": true in the project config (accepted by the user) is refused too', async () => {
    const p = keyProject();
    p.write('avp.config.json', JSON.stringify({ disabled: true }));
    const file = managed({ requiredValidators: ['no-keys'] });
    const r = await p.hook(p.fixture(WRITE), { AVP_MANAGED_CONFIG: file });
    expect(r.json).toMatchObject({ decision: 'block' });
    expect(r.json.systemMessage).toContain('"disabled": true in the config is ignored');
  });

  test('disabledValidators and AVP_DISABLED_VALIDATORS cannot turn off a required validator; others still can', async () => {
    const p = keyProject();
    p.validator('other', { match: { tools: ['Write'] } }, KEY_FINDER, 'check.ts');
    p.write('avp.config.json', JSON.stringify({ disabledValidators: ['no-keys', 'other'] }));
    const file = managed({ requiredValidators: ['no-keys'] });
    const r = await p.hook(p.fixture(WRITE), { AVP_MANAGED_CONFIG: file });
    expect(r.json).toMatchObject({ decision: 'block' });
    expect(r.json.validators ?? r.json.violations.map((v: any) => v.validator)).not.toContain('other');
    expect(r.json.violations.every((v: any) => v.validator === 'no-keys')).toBe(true);
    expect(r.json.systemMessage).toContain(
      `disabledValidators cannot turn off "no-keys": the managed policy (${file}) requires it`,
    );
    const env = await p.hook(p.fixture(WRITE), { AVP_MANAGED_CONFIG: file, AVP_DISABLED_VALIDATORS: 'no-keys' });
    expect(env.json).toMatchObject({ decision: 'block' });
    expect(env.json.systemMessage).toContain('AVP_DISABLED_VALIDATORS cannot turn off "no-keys"');
  });

  test('a severity override that would make a required validator only warn is ignored', async () => {
    const p = keyProject();
    p.write('avp.config.json', JSON.stringify({ severity: { 'no-keys': 'info' } }));
    const file = managed({ requiredValidators: ['no-keys'] });
    const r = await p.hook(p.fixture(WRITE), { AVP_MANAGED_CONFIG: file });
    expect(r.json).toMatchObject({ decision: 'block' });
    expect(r.json.systemMessage).toContain('the severity override "no-keys": "info" is ignored');
  });

  test('a required validator that is not installed blocks, naming it and how to install it', async () => {
    const p = keyProject();
    const file = managed({ requiredValidators: ['org-rules'] });
    const r = await p.hook(p.fixture(WRITE), { AVP_MANAGED_CONFIG: file });
    expect(r.json).toMatchObject({ decision: 'block' });
    expect(r.stdout).toContain('validator \\"org-rules\\" is required by the managed policy but is not installed');
    expect(r.stdout).toContain('avp add org-rules --user');
  });

  test('forbidDisabling: false lets the kill switch work while validators stay required', async () => {
    const p = keyProject();
    const file = managed({ requiredValidators: ['no-keys'], forbidDisabling: false });
    expect((await p.hook(p.fixture(WRITE), { AVP_DISABLE: '1', AVP_MANAGED_CONFIG: file })).stdout).toBe('{}\n');
  });

  test('the managed file needs no acceptance: a change to it is obeyed at once', async () => {
    const p = keyProject();
    const file = managed({ requiredValidators: [], forbidDisabling: false });
    expect((await p.hook(p.fixture(WRITE), { AVP_DISABLE: '1', AVP_MANAGED_CONFIG: file })).stdout).toBe('{}\n');
    writeFileSync(file, JSON.stringify({ forbidDisabling: true }));
    const r = await p.hook(p.fixture(WRITE), { AVP_DISABLE: '1', AVP_MANAGED_CONFIG: file });
    expect(r.json).toMatchObject({ decision: 'block' });
    // No pending announcement: the managed file is not part of the accepted state.
    expect(r.json.systemMessage).not.toContain('not in effect');
    expect(r.json.systemMessage).not.toContain('avp accept');
  });

  test('a broken managed file fails closed: it blocks, names the file, line and fix, and the kill switch is refused', async () => {
    const p = keyProject();
    const file = managed('{\n  "requiredValidators": ["no-keys"],\n  "forbidDisabled": true\n}\n');
    const r = await p.hook(p.fixture(WRITE), { AVP_DISABLE: '1', AVP_MANAGED_CONFIG: file });
    expect(r.json).toMatchObject({ decision: 'block' });
    expect(r.stdout).toContain('unknown managed config key \\"forbidDisabled\\" (did you mean forbidDisabling?)');
    expect(r.stdout).toContain(`${file}:3`);
    const bad = managed('{ "requiredValidators": [\n');
    const list = await runAvp(['check', '--json'], {
      bin: BIN,
      cwd: p.root,
      env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), AVP_MANAGED_CONFIG: bad },
    });
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain(`${bad}`);
    expect(list.stderr).toContain('the managed config is not valid JSON');
  });

  test('avp check obeys the policy as hook mode does (AVP_DISABLE refused, the violation reported)', async () => {
    const p = keyProject();
    p.write('src/config.ts', 'export const key = "sk-live-abc";\n');
    const file = managed({ requiredValidators: ['no-keys'] });
    const r = await runAvp(['check', '--json', 'src/config.ts'], {
      bin: BIN,
      cwd: p.root,
      env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), AVP_DISABLE: '1', AVP_MANAGED_CONFIG: file },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('sk-live-abc');
  });

  test('avp list and avp doctor show the policy and what it refused', async () => {
    const p = keyProject();
    const file = managed({ requiredValidators: ['no-keys'] });
    const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), AVP_MANAGED_CONFIG: file, AVP_DISABLE: '1' };
    const list = await runAvp(['list'], { bin: BIN, cwd: p.root, env });
    expect(list.stdout + list.stderr).toContain('AVP_DISABLE is ignored: the managed policy');
    expect(list.stdout + list.stderr).not.toContain('avp is turned off');
    const doctor = await runAvp(['doctor', '--no-probe'], { bin: BIN, cwd: p.root, env });
    expect(doctor.stdout + doctor.stderr).toContain(`managed policy (${file}): requires no-keys`);
  });
});
