import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configCachePath } from '../../../src/config/cache.ts';
import { configFilesPresent, defaultConfig, loadConfig } from '../../../src/config/config.ts';
import { AvpError } from '../../../src/errors.ts';
import { tempDir } from '../../support/run-avp.ts';

function project(files: Record<string, string> = {}) {
  const root = tempDir('avp-e-cfg-');
  const home = tempDir('avp-e-cfg-home-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return { root, env: { HOME: home, AVP_HOME: join(home, '.avp') } as NodeJS.ProcessEnv, home };
}

async function rejection(p: Promise<unknown>): Promise<AvpError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AvpError);
    return e as AvpError;
  }
  throw new Error('expected a rejection');
}

describe('loadConfig', () => {
  test('no file: the defaults, and the fast path finds nothing to load', async () => {
    const { root, env } = project();
    expect(configFilesPresent(root, env)).toEqual([]);
    expect(await loadConfig({ cwd: root, projectRoot: root, env })).toEqual(defaultConfig());
  });

  test('avp.config.json, .avprc (rc syntax) and $AVP_HOME/config.json are merged, project over user', async () => {
    const { root, env, home } = project({
      'avp.config.json': JSON.stringify({
        concurrency: 3,
        disabledValidators: ['a'],
        judge: { backend: 'command', command: 'my-judge' },
      }),
      '.avprc': 'budgetMs=5000\nseverity.no-console=info\n',
    });
    mkdirSync(join(home, '.avp'), { recursive: true });
    writeFileSync(join(home, '.avp/config.json'), JSON.stringify({ concurrency: 9, maxStopBlocks: 1 }));
    expect(configFilesPresent(root, env)).toHaveLength(3);
    const c = await loadConfig({ cwd: root, projectRoot: root, env });
    expect(c.concurrency).toBe(3);
    expect(c.maxStopBlocks).toBe(1);
    expect(c.budgetMs).toBe(5000);
    expect(c.severity).toEqual({ 'no-console': 'info' });
    expect(c.disabledValidators).toEqual(['a']);
    expect(c.judge).toMatchObject({ backend: 'command', command: 'my-judge' });
  });

  test('YAML and TypeScript config files', async () => {
    const yaml = project({ 'avp.config.yaml': 'disabled: [x, y]\nconcurrency: 2\n' });
    expect(await loadConfig({ cwd: yaml.root, projectRoot: yaml.root, env: yaml.env })).toMatchObject({
      disabledValidators: ['x', 'y'],
      concurrency: 2,
      disabled: false,
    });
    const ts = project({ 'avp.config.ts': 'export default { disabled: true }\n' });
    expect((await loadConfig({ cwd: ts.root, projectRoot: ts.root, env: ts.env })).disabled).toBe(true);
  });

  test('environment overrides files; flags (overrides) override the environment', async () => {
    const { root, env } = project({ 'avp.config.json': '{"concurrency": 3}' });
    const c = await loadConfig({
      cwd: root,
      projectRoot: root,
      env: {
        ...env,
        AVP_CONCURRENCY: '5',
        AVP_BUDGET_MS: '1000',
        AVP_DISABLE: '1',
        AVP_JUDGE_COMMAND: 'j',
        AVP_DISABLED_VALIDATORS: 'p, q',
        AVP_NO_CACHE: '1',
      },
      overrides: { budgetMs: 2000 },
    });
    expect(c).toMatchObject({
      concurrency: 5,
      budgetMs: 2000,
      disabled: true,
      disabledValidators: ['p', 'q'],
      cache: { enabled: false },
    });
    expect(c.judge).toMatchObject({ backend: 'command', command: 'j' });
  });

  test('a wrong key or type names the file and the key', async () => {
    const typo = project({ 'avp.config.json': '{"concurency": 3}' });
    const e1 = await rejection(loadConfig({ cwd: typo.root, projectRoot: typo.root, env: typo.env }));
    expect(e1.code).toBe('config-invalid');
    expect(e1.message).toContain('concurency');
    expect(e1.file).toContain('avp.config.json');
    const type = project({ 'avp.config.json': '{"judge": {"backend": "gpt"}}' });
    const e2 = await rejection(loadConfig({ cwd: type.root, projectRoot: type.root, env: type.env }));
    expect(e2.message).toContain('judge.backend');
  });

  test('malformed JSON and bad env values are clear errors', async () => {
    const broken = project({ 'avp.config.json': '{"concurrency": ' });
    expect((await rejection(loadConfig({ cwd: broken.root, projectRoot: broken.root, env: broken.env }))).code).toBe(
      'config-invalid',
    );
    const { root, env } = project();
    const e = await rejection(loadConfig({ cwd: root, projectRoot: root, env: { ...env, AVP_CONCURRENCY: 'lots' } }));
    expect(e.code).toBe('config-env');
    expect(e.message).toContain('AVP_CONCURRENCY');
    // trackMaxFiles bounds Bash tracking: 0 would mean nothing and is refused rather than silently replaced.
    expect(
      (await rejection(loadConfig({ cwd: root, projectRoot: root, env: { ...env, AVP_TRACK_MAX_FILES: '0' } }))).code,
    ).toBe('config-env');
    const zero = project({ 'avp.config.json': JSON.stringify({ trackMaxFiles: 0 }) });
    expect((await rejection(loadConfig({ cwd: zero.root, projectRoot: zero.root, env: zero.env }))).code).toBe(
      'config-invalid',
    );
  });
});

describe('config cache ($AVP_HOME/cache/config/)', () => {
  // Files changed less than 2 s ago are never cached (coarse timestamps; ctime cannot be set back), so these wait.
  const settle = () => Bun.sleep(2100);

  test('a data config is cached by its stats, and any change to it is a miss', async () => {
    const { root, env } = project({
      'avp.config.json': JSON.stringify({ concurrency: 3 }),
      '.avp/validators/.keep': '',
    });
    const file = join(root, 'avp.config.json');
    await settle();
    expect((await loadConfig({ cwd: root, projectRoot: root, env })).concurrency).toBe(3);
    const cache = configCachePath(root, env);
    expect(existsSync(cache)).toBe(true);
    expect(existsSync(join(root, '.avp/cache'))).toBe(false); // outside the project, where the agent writes
    // The next call answers from the cache: a planted value there is what it returns.
    const data = JSON.parse(readFileSync(cache, 'utf8'));
    writeFileSync(cache, JSON.stringify({ ...data, layer: { concurrency: 7 } }));
    expect((await loadConfig({ cwd: root, projectRoot: root, env })).concurrency).toBe(7);
    // Edited, same size: read from the file again.
    writeFileSync(file, JSON.stringify({ concurrency: 5 }));
    expect((await loadConfig({ cwd: root, projectRoot: root, env })).concurrency).toBe(5);
    // A second config file appears: a miss too.
    writeFileSync(join(root, '.avprc'), 'budgetMs=5000\n');
    const both = await loadConfig({ cwd: root, projectRoot: root, env });
    expect([both.concurrency, both.budgetMs]).toEqual([5, 5000]);
  }, 10_000);

  test('files changed in the last 2 s and code configs are never cached; nothing is written into the project', async () => {
    const fresh = project({ 'avp.config.json': JSON.stringify({ concurrency: 2 }), '.avp/validators/.keep': '' });
    await loadConfig({ cwd: fresh.root, projectRoot: fresh.root, env: fresh.env });
    expect(existsSync(configCachePath(fresh.root, fresh.env))).toBe(false);

    const code = project({ 'avp.config.ts': 'export default { concurrency: 2 };\n', '.avp/validators/.keep': '' });
    const bare = project({ 'avp.config.json': JSON.stringify({ concurrency: 2 }) });
    await settle();
    expect((await loadConfig({ cwd: code.root, projectRoot: code.root, env: code.env })).concurrency).toBe(2);
    expect(existsSync(configCachePath(code.root, code.env))).toBe(false);
    expect((await loadConfig({ cwd: bare.root, projectRoot: bare.root, env: bare.env })).concurrency).toBe(2);
    expect(existsSync(join(bare.root, '.avp'))).toBe(false);
  }, 10_000);

  test('an invalid config is never cached: it fails on every call', async () => {
    const { root, env } = project({
      'avp.config.json': JSON.stringify({ concurrency: 0 }),
      '.avp/validators/.keep': '',
    });
    await settle();
    for (let i = 0; i < 2; i++)
      expect((await rejection(loadConfig({ cwd: root, projectRoot: root, env }))).code).toBe('config-invalid');
    expect(existsSync(configCachePath(root, env))).toBe(false);
  }, 10_000);
});
