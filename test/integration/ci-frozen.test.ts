/**
 * `avp install --frozen` in CI: a lockfile that does not match `.avp/validators/` is refused — every disagreement
 * listed at once, nothing written — so CI never runs other validators than the team's agents do.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { gitRepo, sh } from './ci-support.ts';

function team(opts: { commitValidators?: boolean } = {}) {
  const root = gitRepo({ 'a.ts': 'x\n' });
  const home = tempDir('avp-ci-frozen-home-');
  const env = { HOME: home, AVP_HOME: join(home, '.avp') };
  const avp = (args: string[]) => runAvp(args, { cwd: root, env });
  const lockPath = join(root, '.avp/avp-lock.json');
  const v = (name: string) => join(root, '.avp/validators', name);
  return {
    root,
    avp,
    v,
    lockPath,
    async setup() {
      for (const name of ['no-secrets', 'no-debug-leftovers']) {
        const r = await avp(['add', `catalog:${name}`, '--project']);
        expect(r.code).toBe(0);
      }
      if (opts.commitValidators === false) writeFileSync(join(root, '.gitignore'), '.avp/validators/\n');
      sh(root, 'git add -A && git commit -qm "validators and lockfile"');
    },
  };
}

describe('avp install --frozen: the drift check', () => {
  test('a matching folder passes untouched; a hand-written validator without a lock entry is fine', async () => {
    const t = team();
    await t.setup();
    mkdirSync(t.v('house-rules'), { recursive: true });
    writeFileSync(join(t.v('house-rules'), 'VALIDATOR.md'), '---\nname: house-rules\ndescription: x\n---\nBe nice.\n');
    const r = await t.avp(['install', '--frozen', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { action: string }) => x.action)).toEqual(['unchanged', 'unchanged']);
  });

  test('an edited validator and a deleted one are both named, and nothing is restored', async () => {
    const t = team();
    await t.setup();
    const edited = join(t.v('no-secrets'), 'VALIDATOR.md');
    writeFileSync(edited, `${readFileSync(edited, 'utf8')}\nAlso allow test keys.\n`);
    rmSync(t.v('no-debug-leftovers'), { recursive: true });
    const lock = readFileSync(t.lockPath, 'utf8');
    const r = await t.avp(['install', '--frozen']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('validators/no-secrets differs from no-secrets@');
    expect(r.stderr).toContain('validators/no-debug-leftovers is missing');
    expect(r.stderr).toContain('fix:');
    expect(readFileSync(edited, 'utf8')).toContain('Also allow test keys.');
    expect(existsSync(t.v('no-debug-leftovers'))).toBe(false);
    expect(readFileSync(t.lockPath, 'utf8')).toBe(lock);
    // Without --frozen the locked versions are put back — over a local edit only with --force (edits are not lost).
    const plain = await t.avp(['install']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('--force');
    expect((await t.avp(['install', '--force'])).code).toBe(0);
    expect(existsSync(t.v('no-debug-leftovers'))).toBe(true);
    expect((await t.avp(['install', '--frozen'])).code).toBe(0);
  });

  test('validators kept out of git are restored by --frozen (the folder is not the truth there)', async () => {
    const t = team({ commitValidators: false });
    await t.setup();
    rmSync(t.v('no-debug-leftovers'), { recursive: true });
    const r = await t.avp(['install', '--frozen', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toContainEqual(
      expect.objectContaining({ name: 'no-debug-leftovers', action: 'installed' }),
    );
  });

  test('a single-file validator of a locked name is drift', async () => {
    const t = team();
    await t.setup();
    writeFileSync(join(t.root, '.avp/validators/no-secrets.md'), '---\nname: no-secrets\ndescription: mine\n---\nx\n');
    const r = await t.avp(['install', '--frozen']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('validators/no-secrets.md also defines no-secrets');
  });

  test('a lockfile written before tree hashes: checked against the locked package itself', async () => {
    const t = team();
    await t.setup();
    const lf = JSON.parse(readFileSync(t.lockPath, 'utf8'));
    for (const e of Object.values(lf.packages) as Array<Record<string, unknown>>) delete e.treeIntegrity;
    writeFileSync(t.lockPath, `${JSON.stringify(lf, null, 2)}\n`);
    expect((await t.avp(['accept'])).code).toBe(0);
    const same = await t.avp(['install', '--frozen', '--json']);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout).every((x: { action: string }) => x.action === 'unchanged')).toBe(true);
    writeFileSync(join(t.v('no-secrets'), 'VALIDATOR.md'), 'tampered');
    const r = await t.avp(['install', '--frozen']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('validators/no-secrets differs');
    expect(readFileSync(join(t.v('no-secrets'), 'VALIDATOR.md'), 'utf8')).toBe('tampered');
  });
});
