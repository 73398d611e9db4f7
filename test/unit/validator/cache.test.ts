/**
 * The discovery parse cache: a warm call reuses parsed units without loading the parser; any edit, added or removed
 * file is seen; a corrupt cache is ignored; files changed in the last RACY_MS are never cached.
 */
import { describe, expect, test } from 'bun:test';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { discover, discoveryCachePath } from '../../../src/validator/discover.ts';
import { RACY_MS } from '../../../src/validator/cache.ts';
import { tree, valid, write } from './helpers.ts';

/** The project's parse cache: in the avp home, never in the project. */
const cacheOf = (projectRoot: string, home: string) =>
  discoveryCachePath(resolve(projectRoot, '.avp/validators'), { AVP_HOME: home });
const settle = () => Bun.sleep(RACY_MS + 150);

/** Rewrites the cached body of every cached validator: if a later call returns it, the call used the cache. */
function markCache(path: string, marker: string): void {
  const data = JSON.parse(readFileSync(path, 'utf8'));
  for (const entry of Object.values<any>(data.entries)) for (const v of entry.result.validators) v.body = marker;
  writeFileSync(path, JSON.stringify(data));
}

describe('parse cache', () => {
  test('warm calls use the cache; edits, new files, removed files and corrupt caches are all seen', async () => {
    const projectRoot = tree({
      '.avp/validators/a.md': valid('a'),
      '.avp/validators/d/VALIDATOR.md': valid('d'),
      '.avp/validators/d/references/one.md': '1',
    });
    const home = tree();
    const run = () => discover({ projectRoot, env: { AVP_HOME: home } });
    await settle();

    const cold = await run();
    expect(cold.validators.map((v) => v.id)).toEqual(['a', 'd']);
    expect(existsSync(cacheOf(projectRoot, home))).toBe(true);
    expect(existsSync(join(projectRoot, '.avp/cache'))).toBe(false); // never in the project, where the agent writes

    markCache(cacheOf(projectRoot, home), 'FROM-CACHE');
    const warm = await run();
    expect(warm.validators.map((v) => v.body)).toEqual(['FROM-CACHE', 'FROM-CACHE']);

    // An edited file is a miss for its unit only.
    appendFileSync(join(projectRoot, '.avp/validators/a.md'), '\nEdited.\n');
    const edited = await run();
    expect(edited.validators.map((v) => [v.id, v.body.endsWith('Edited.')])).toEqual([
      ['a', true],
      ['d', false],
    ]);
    expect(edited.validators[1]!.body).toBe('FROM-CACHE');

    // Even an empty new folder is seen: an empty rules/ makes d a RuleSet without rules, an error.
    mkdirSync(join(projectRoot, '.avp/validators/d/rules'));
    expect((await run()).errors).toMatchObject([{ message: 'RuleSet has a rules/ folder without any rule' }]);
    rmSync(join(projectRoot, '.avp/validators/d/rules'), { recursive: true });

    // A file added inside a directory validator changes its references.
    write(projectRoot, { '.avp/validators/d/references/two.md': '2' });
    const added = await run();
    expect(added.validators[1]!.references.map((p) => p.split('/').pop())).toEqual(['one.md', 'two.md']);

    // A new validator appears, a removed one disappears.
    write(projectRoot, { '.avp/validators/team/b.md': valid('b') });
    rmSync(join(projectRoot, '.avp/validators/a.md'));
    expect((await run()).validators.map((v) => v.id)).toEqual(['d', 'b']);

    // An edit that breaks a validator becomes a load error at once.
    writeFileSync(join(projectRoot, '.avp/validators/team/b.md'), valid('b', { severity: 'critical' }));
    const broken = await run();
    expect(broken.validators.map((v) => v.id)).toEqual(['d']);
    expect(broken.errors).toMatchObject([{ name: 'b', line: 4 }]);

    // A corrupt cache is ignored.
    writeFileSync(cacheOf(projectRoot, home), '{"format":1,"entr');
    expect((await run()).validators.map((v) => v.id)).toEqual(['d']);
  }, 20_000);

  test('a referenced file that appears later turns the load error into a validator', async () => {
    const projectRoot = tree({ '.avp/validators/a.md': valid('a') + 'See [policy](policy.md).\n' });
    await settle();
    const run = () => discover({ projectRoot, env: { AVP_HOME: tree() } });
    expect((await run()).errors).toMatchObject([{ message: 'policy.md is named in the prompt but does not exist' }]);
    write(projectRoot, {
      '.avp/validators/policy.md': '---\nname: policy\ndescription: x\nseverity: info\ntrigger: Stop\n---\nPolicy.\n',
    });
    const d = await run();
    expect(d.errors).toEqual([]);
    expect(d.validators.map((v) => v.id)).toEqual(['a', 'policy']);
  }, 10_000);

  test('files changed moments ago are not cached (their stats cannot be trusted yet)', async () => {
    const projectRoot = tree({ '.avp/validators/a.md': valid('a'), '.avp/validators/b.md': valid('b') });
    await settle();
    // b changes "now": an mtime a minute ahead stays inside the racy window however slow this machine is.
    const soon = new Date(Date.now() + 60_000);
    utimesSync(join(projectRoot, '.avp/validators/b.md'), soon, soon);
    const home = tree();
    await discover({ projectRoot, env: { AVP_HOME: home } });
    const data = JSON.parse(readFileSync(cacheOf(projectRoot, home), 'utf8'));
    expect(Object.keys(data.entries)).toEqual([join(projectRoot, '.avp/validators/a.md')]);
  });

  test('a warm call imports neither gray-matter, yaml nor valibot (nor the loader)', async () => {
    const projectRoot = tree({ '.avp/validators/a.md': valid('a'), '.avp/validators/d/VALIDATOR.md': valid('d') });
    const home = tree({ 'validators/u.md': valid('u') });
    await settle();
    const script = join(tree(), 'probe.ts');
    writeFileSync(
      script,
      `import { discover } from ${JSON.stringify(resolve(import.meta.dir, '../../../src/validator/discover.ts'))};
const d = await discover({ projectRoot: ${JSON.stringify(projectRoot)}, env: { AVP_HOME: ${JSON.stringify(home)} } });
const heavy = Object.keys(require.cache).filter((k) => /gray-matter|valibot|node_modules\\/yaml\\/|validator\\/load\\.ts/.test(k));
const yaml = heavy.some((k) => /node_modules\\/yaml\\//.test(k));
console.log(JSON.stringify({ ids: d.validators.map((v) => v.id), heavy: heavy.length, yaml }));`,
    );
    const probe = async () => JSON.parse(new TextDecoder().decode(Bun.spawnSync([process.execPath, script]).stdout));
    const cold = await probe();
    expect(cold.ids).toEqual(['a', 'd', 'u']);
    expect(cold.heavy).toBeGreaterThan(0); // the probe can see the parser when it is loaded
    expect(cold.yaml).toBe(true);
    const warm = await probe();
    expect(warm).toEqual({ ids: ['a', 'd', 'u'], heavy: 0, yaml: false });
  }, 20_000);
});
