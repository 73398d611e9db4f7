import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECT_FIXTURES, zipDir } from './reference-registry.ts';
import { sandbox } from './registry-client-helpers.ts';
import { deserialize } from './registry-dialect-types.ts';
import {
  api,
  createToken,
  packageZip,
  publishZip,
  startServerProcess,
  zipOf,
  type ServerProcess,
} from './registry-server-support.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';

/**
 * avp's server answering requests as the reference client makes them: a version spec put into the path as typed
 * (`name@^1.0` → `/api/packages/name/^1.0`) resolves to the highest matching published, unyanked version; RuleSets
 * whose rules carry the reference's `match`, `supersedes` and `tool` publish and install; a login made with the
 * reference client works; `avp add` downloads once.
 */

let srv: ServerProcess;
let owner: string;

beforeAll(async () => {
  srv = await startServerProcess();
  owner = (await createToken(srv.data, 'acme')).token;
  for (const v of ['1.0.0', '1.0.4', '1.1.0', '1.2.0', '2.0.0-beta.1']) {
    const r = await publishZip(srv.url, packageZip('spec-pkg', v), owner);
    if (r.status !== 201) throw new Error(`publish ${v}: ${JSON.stringify(r.body)}`);
  }
  const yank = await api(srv.url, '/api/packages/spec-pkg/1.2.0', { method: 'DELETE', token: owner });
  if (yank.status !== 200) throw new Error(`yank: ${JSON.stringify(yank.body)}`);
});
afterAll(() => srv.stop());

describe('version specs in the path, as the reference client sends them', () => {
  test.each([
    ['^1.0', '1.1.0'],
    ['%5E1.0', '1.1.0'],
    ['~1.0.0', '1.0.4'],
    ['1.x', '1.1.0'],
    ['1.0', '1.0.4'],
    ['v1.0.0', '1.0.0'],
    ['%3E%3D1.0.0%20%3C1.1.0', '1.0.4'],
    ['1.0.4', '1.0.4'],
  ])('%s resolves to %s (the yanked 1.2.0 and the prerelease are never picked)', async (spec, want) => {
    const r = await api(srv.url, `/api/packages/spec-pkg/${spec}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    deserialize('VersionDetail', r.body);
    expect(r.body.version).toBe(want);
    expect(r.body.downloadUrl).toEndWith(`/api/packages/spec-pkg/${want}/download`);
  });

  test('a spec nothing satisfies, or that is no spec, is a 404 naming it; the yanked exact version still answers', async () => {
    for (const spec of ['^3.0', '1.2.x', 'not-a-range']) {
      const r = await api(srv.url, `/api/packages/spec-pkg/${spec}`);
      expect(r.status, spec).toBe(404);
      expect(r.body.error_description).toContain(`spec-pkg has no version matching ${spec}`);
    }
    const pinned = await api(srv.url, '/api/packages/spec-pkg/1.2.0');
    expect(pinned.status).toBe(200);
    expect(pinned.body.version).toBe('1.2.0');
  });
});

describe("the reference's rule keys, its login and one download per add, against avp's server", () => {
  test('code-hygiene and manifests (rules with match, supersedes, tool) publish and install, tool rules not run', async () => {
    for (const name of ['code-hygiene', 'manifests']) {
      const r = await publishZip(srv.url, zipDir(join(DIALECT_FIXTURES, 'current', name), name, '1.0.0'), owner);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      deserialize('PublishResponse', r.body);
    }
    const s = sandbox(srv.url);
    const add = await s.avp(['add', 'code-hygiene', '--json']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toContain('code-hygiene: 2 tool rules not run (code-hygiene/long-functions-python, ');
    expect(add.stderr).toContain('they run pylint, cargo');
    expect(JSON.parse(add.stdout).notRun.map((t: { id: string }) => t.id)).toEqual([
      'code-hygiene/long-functions-python',
      'code-hygiene/undocumented-api-rust',
    ]);
    const list = await s.avp(['list']);
    expect(list.stdout).toMatch(/code-hygiene\/long-functions-python\s+1\.0\.0\s+user\s+registry\s+not run\s/);
    expect(list.stdout).toMatch(/code-hygiene\/test-names\s+1\.0\.0\s+user\s+registry\s+on\s.*rule-files=\*\.test\.ts/);
    expect(list.stdout).toContain('Not run: 2 tool rules');
    expect((await s.avp(['add', 'manifests'])).code).toBe(0);
  });

  test("a login made with the reference client is used for avp's server", async () => {
    const s = sandbox(srv.url);
    const path = join(s.home, 'mirdan-creds.json');
    await Bun.write(path, JSON.stringify({ registry: srv.url, token: owner, email: 'a@example.com', name: 'acme' }));
    const who = await s.avp(['whoami', '--json'], { env: { MIRDAN_CREDENTIALS_PATH: path } });
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({
      registry: srv.url,
      tokenSource: `${path} (the reference client's login)`,
    });
  });

  test('avp add with no judge configured raises the download count by exactly one', async () => {
    const zip = zipOf('one-download', {
      'VALIDATOR.md':
        '---\nname: one-download\ndescription: A script check\nseverity: error\ntrigger: PostToolUse\n' +
        'script: scripts/check.sh\nmetadata:\n  version: "1.0.0"\n---\n\nNo TODO left behind.\n',
      'scripts/check.sh': '#!/bin/sh\nexit 0\n',
    });
    expect((await publishZip(srv.url, zip, owner)).status).toBe(201);
    const before = (await api(srv.url, '/api/packages/one-download')).body.downloads;
    const home = tempDir('avp-nojudge-');
    const r = await runAvp(['add', 'one-download'], {
      env: { HOME: home, AVP_HOME: join(home, '.avp'), PATH: '/usr/bin:/bin', AVP_REGISTRY_URL: srv.url },
    });
    expect(r.code, r.stderr).toBe(0);
    expect((await api(srv.url, '/api/packages/one-download')).body.downloads - before).toBe(1);
  });

  test('an avp server named by --registry that has stopped is an error; nothing is installed from the catalog', async () => {
    const gone = await startServerProcess();
    const url = gone.url;
    await gone.stop();
    const s = sandbox();
    const r = await s.avp(['add', 'no-secrets', '--registry', url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`could not reach ${url}/api/packages/no-secrets/latest`);
    expect(r.stderr).toContain('(the registry --registry names); nothing was installed');
    expect(existsSync(join(s.avpHome, 'validators', 'no-secrets'))).toBe(false);
    expect(existsSync(s.userLock)).toBe(false);
  });
});
