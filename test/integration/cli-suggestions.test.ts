/**
 * Did-you-mean beyond flags (validator names, config keys, triggers) and `avp search` / `avp info` answering from
 * the embedded catalog when the registry cannot be reached, through the real binary and real loopback servers.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

function project(): { cwd: string; env: Record<string, string>; avpHome: string } {
  const cwd = tempDir('avp-dym-');
  const home = tempDir('avp-dym-home-');
  const avpHome = join(home, '.avp');
  return { cwd, avpHome, env: { HOME: home, AVP_HOME: avpHome, AVP_REGISTRY_URL: 'http://127.0.0.1:9' } };
}

/** A loopback port nothing listens on: bound, then released. */
function closedPort(): number {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') });
  const port = s.port as number;
  s.stop(true);
  return port;
}

/** A registry that answers, but with an error: avp must believe it, not fall back to the catalog. */
const failing = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (req) =>
    new URL(req.url).pathname.startsWith('/api/packages/')
      ? Response.json({ error: 'not found' }, { status: 404 })
      : Response.json({ error: 'database down' }, { status: 500 }),
});
afterAll(() => failing.stop(true));

describe('did-you-mean for validator names, config keys and triggers', () => {
  test('avp add no-secret names no-secrets and installs nothing', async () => {
    const p = project();
    const r = await runAvp(['add', 'no-secret', '--offline'], p);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('(did you mean no-secrets?)');
    expect(r.stderr).toContain('`avp add no-secrets` if that is the one you meant');
    expect(existsSync(join(p.avpHome, 'validators', 'no-secret'))).toBe(false);
  });

  test('avp remove suggests an installed name, and removes nothing', async () => {
    const p = project();
    expect((await runAvp(['add', 'no-secrets', '--offline'], p)).code).toBe(0);
    const r = await runAvp(['remove', 'no-secret'], p);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('`avp remove no-secrets`');
    expect(existsSync(join(p.avpHome, 'validators', 'no-secrets'))).toBe(true);
    // Nothing installed is close to it: no suggestion of a catalog name one cannot remove.
    const far = await runAvp(['remove', 'sql-injectin'], p);
    expect(far.stderr).not.toContain('did you mean');
  });

  test('a misspelt config key names the key it is closest to, nested ones too', async () => {
    const p = project();
    mkdirSync(p.avpHome, { recursive: true });
    const file = join(p.avpHome, 'config.json');
    writeFileSync(file, JSON.stringify({ disabledValidator: ['x'] }));
    let r = await runAvp(['doctor', '--no-probe'], p);
    expect(r.stdout).toContain(`${file}: unknown config key "disabledValidator" (did you mean disabledValidators?)`);
    writeFileSync(file, JSON.stringify({ judge: { backnd: 'claude' } }));
    r = await runAvp(['doctor', '--no-probe'], p);
    expect(r.stdout).toContain('unknown config key "judge.backnd" (did you mean judge.backend?)');
  });

  test('avp new --trigger and avp lint name the trigger that was meant', async () => {
    const p = project();
    const made = await runAvp(['new', 'x', '--project', '--trigger', 'PostTooluse'], p);
    expect(made.code).toBe(1);
    expect(made.stderr).toContain('did you mean PostToolUse?');
    expect(existsSync(join(p.cwd, '.avp'))).toBe(false);
    const file = join(p.cwd, 'v.md');
    writeFileSync(
      file,
      '---\nname: v\ndescription: d\nseverity: warn\ntrigger: PostToolUze\n---\n\n# v\n\nCheck it.\n',
    );
    const lint = await runAvp(['lint', file], p);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain('did you mean PostToolUse?');
  });
});

describe('search and info without a registry', () => {
  test('an unreachable registry: search answers from the embedded catalog and says so on stderr', async () => {
    const p = project();
    const registry = `http://127.0.0.1:${closedPort()}`;
    const r = await runAvp(['search', 'secret', '--registry', registry], p);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no-secrets');
    expect(r.stdout).not.toContain('sql-injection');
    expect(r.stderr).toContain('catalog embedded in avp');
    const json = JSON.parse((await runAvp(['search', '--offline', '--json', '--tag', 'security'], p)).stdout);
    expect(json.source).toBe('catalog');
    expect(json.packages.map((x: { name: string }) => x.name)).toContain('no-secrets');
  });

  test('info answers from the catalog offline, and a typo gets a suggestion', async () => {
    const p = project();
    const r = await runAvp(['info', 'no-secrets', '--registry', `http://127.0.0.1:${closedPort()}`], p);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no-secrets@');
    expect(r.stdout).toContain('avp add no-secrets');
    expect(r.stderr).toContain('catalog embedded in avp');
    const json = JSON.parse((await runAvp(['info', 'no-secrets', '--offline', '--json'], p)).stdout);
    expect(json).toMatchObject({ source: 'catalog', detail: { name: 'no-secrets', tags: ['security', 'secrets'] } });
    const typo = await runAvp(['info', 'no-secret', '--offline'], p);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('did you mean no-secrets?');
  });

  test('a registry that answers with an error is believed: no silent fallback', async () => {
    const p = project();
    const registry = `http://127.0.0.1:${failing.port}`;
    const search = await runAvp(['search', 'secret', '--registry', registry], p);
    expect(search.code).toBe(1);
    expect(search.stderr).toContain('500');
    expect(search.stdout).toBe('');
    const info = await runAvp(['info', 'no-secret', '--registry', registry], p);
    expect(info.code).toBe(1);
    expect(info.stderr).toContain('404');
    expect(info.stderr).toContain('did you mean no-secrets?');
  });
});
