import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
import { deserialize } from './registry-dialect-types.ts';
import {
  api,
  createToken,
  filesUnder,
  packageZip,
  publishZip,
  startServerProcess,
  zipOf,
  type ServerProcess,
} from './registry-server-support.ts';

/**
 * avp's server speaking the reference's dialect: every answer deserializes in the reference client's types, the
 * reference's current RuleSet format publishes once its version is filled, `GET /api/search` ranks by a fuzzy
 * match, `DELETE` yanks and says so, and `avp registry purge` removes a version for good, audit-logged.
 */

const FIXTURES = join(import.meta.dir, '../fixtures/registry-dialect');

/** The fixture RuleSet as an archive, with `{{version}}` replaced when `version` is given. */
function rulesetZip(which: 'current' | 'legacy', version?: string): Uint8Array {
  const dir = join(FIXTURES, which, 'code-quality');
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const text = readFileSync(p, 'utf8');
        files[relative(dir, p)] = version ? text.replace('{{version}}', version) : text;
      }
    }
  };
  walk(dir);
  return zipOf('code-quality', files);
}

let srv: ServerProcess;
let admin: string;
let owner: string;

beforeAll(async () => {
  srv = await startServerProcess();
  admin = (await createToken(srv.data, 'root', { admin: true })).token;
  owner = (await createToken(srv.data, 'acme')).token;
  const publish = async (bytes: Uint8Array) => {
    const r = await publishZip(srv.url, bytes, owner);
    if (r.status !== 201) throw new Error(`publish failed: ${JSON.stringify(r.body)}`);
    deserialize('PublishResponse', r.body);
  };
  await publish(packageZip('no-secrets', '1.0.0', { description: 'Detects hardcoded secrets', tags: ['security'] }));
  await publish(packageZip('no-secrets', '1.1.0', { description: 'Detects hardcoded secrets', tags: ['security'] }));
  await publish(packageZip('secrets-audit', '0.1.0', { description: 'Audits how secrets are loaded' }));
  await publish(packageZip('sql-injection', '1.0.0', { description: 'Flags string-built SQL queries' }));
  // An attacker stuffing the query into a description must not outrank a package whose name matches.
  await publish(packageZip('stuffed', '1.0.0', { description: 'no-secrets secrets no secrets secrets' }));
  for (let i = 0; i < 3; i++) await api(srv.url, '/api/packages/stuffed/1.0.0/download');
});
afterAll(() => srv.stop());

describe("avp's server in the reference's dialect", () => {
  test("the reference's current RuleSet format publishes once its version is filled; unfilled it is refused", async () => {
    const unfilled = await publishZip(srv.url, rulesetZip('current'), owner);
    expect(unfilled.status).toBe(422);
    expect(unfilled.body.error_description).toContain('"{{version}}" is an unfilled release template');
    const filled = await publishZip(srv.url, rulesetZip('current', '1.0.0'), owner);
    expect(filled.status, JSON.stringify(filled.body)).toBe(201);
    const legacy = await publishZip(srv.url, rulesetZip('legacy'), owner);
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(409); // same name and version 1.0.0: already published
  });

  test("every read answer deserializes in the reference client's types", async () => {
    const cases: Array<[Parameters<typeof deserialize>[0], string]> = [
      ['SearchResponse', '/api/packages?q=secrets&type=validator'],
      ['SearchResponse', '/api/packages?q='],
      ['PackageDetail', '/api/packages/no-secrets'],
      ['VersionDetail', '/api/packages/no-secrets/latest'],
      ['VersionDetail', '/api/packages/no-secrets/1.0.0'],
      ['VersionListResponse', '/api/packages/no-secrets/versions'],
      ['FuzzySearchResponse', '/api/search?q=secrts'],
      ['FuzzySearchResponse', '/api/search?q=&limit=2'],
    ];
    for (const [kind, path] of cases) {
      const r = await api(srv.url, path);
      expect(r.status, path).toBe(200);
      expect(() => deserialize(kind, r.body), path).not.toThrow();
    }
    const updates = await api(srv.url, '/api/packages/updates', {
      method: 'POST',
      token: owner,
      body: { installed: [{ name: 'no-secrets', version: '1.0.0' }] },
    });
    deserialize('UpdateCheckResponse', updates.body);
    expect(updates.body.updates[0]).toMatchObject({ latestVersion: '1.1.0', updateType: 'minor' });
  });

  test('/api/search ranks by a fuzzy match: exact, typo, words; stuffing a description does not win', async () => {
    const exact = (await api(srv.url, '/api/search?q=no-secrets')).body;
    expect(exact.results[0]).toMatchObject({ name: 'no-secrets', score: 1, qualified_name: 'no-secrets' });
    const typo = (await api(srv.url, '/api/search?q=secrts')).body;
    const names = typo.results.map((r: any) => r.name);
    expect(names.slice(0, 2).sort()).toEqual(['no-secrets', 'secrets-audit']);
    expect(names).not.toContain('sql-injection');
    const word = (await api(srv.url, '/api/search?q=secrets')).body.results.map((r: any) => r.name);
    expect(word.indexOf('stuffed')).toBeGreaterThan(word.indexOf('no-secrets'));
    expect(word.indexOf('stuffed')).toBeGreaterThan(word.indexOf('secrets-audit'));
    const scores = (await api(srv.url, '/api/search?q=secrets')).body.results.map((r: any) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // No query: everything, most downloaded first; limit bounds the page, total counts all.
    const all = (await api(srv.url, '/api/search?q=&limit=1')).body;
    expect(all.results.map((r: any) => r.name)).toEqual(['stuffed']);
    expect(all.total).toBeGreaterThanOrEqual(5);
    expect((await api(srv.url, '/api/search?q=sql&type=Validator')).body.results[0].name).toBe('sql-injection');
    expect((await api(srv.url, '/api/search?q=sql&type=skill')).body.results).toEqual([]);
    expect((await api(srv.url, '/api/search?q=x&limit=abc')).status).toBe(400);
    expect((await api(srv.url, '/api/search?q=x', { method: 'POST' })).status).toBe(405);
    const huge = await api(srv.url, `/api/search?q=${'a'.repeat(5000)}`);
    expect(huge.status).toBe(200);
  });

  test('avp search uses our /api/search and shows the version it adds', async () => {
    const r = await runAvp(['search', 'secrts', '--json'], { env: { AVP_REGISTRY_URL: srv.url } });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.endpoint).toBe('/api/search');
    expect(out.packages.find((p: any) => p.name === 'no-secrets')).toMatchObject({ latest: '1.1.0' });
  });

  test('DELETE yanks and says so (deleted: false, yanked: true); the exact version stays downloadable', async () => {
    const r = await api(srv.url, '/api/packages/no-secrets/1.1.0', { method: 'DELETE', token: owner });
    expect(r.status).toBe(200);
    deserialize('UnpublishResponse', r.body);
    expect(r.body).toMatchObject({ deleted: false, yanked: true, latest: '1.0.0' });
    expect((await api(srv.url, '/api/packages/no-secrets/1.1.0/download')).status).toBe(200);
    const cli = await runAvp(['yank', 'no-secrets@1.0.0', '--json'], {
      env: { AVP_REGISTRY_URL: srv.url, AVP_TOKEN: owner },
    });
    expect(JSON.parse(cli.stdout)).toMatchObject({ deleted: false, yanked: true });
  });

  test('avp registry purge deletes one version for good, needs a reason, and writes the audit log', async () => {
    const v = (await api(srv.url, '/api/packages/sql-injection/1.0.0')).body;
    const key = Buffer.from(v.integrity.slice('sha512-'.length), 'base64').toString('hex');
    expect(filesUnder(srv.data).some((f) => f.endsWith(`${key}.zip`))).toBe(true);
    const noReason = await runAvp(['registry', 'purge', 'sql-injection@1.0.0', '--data', srv.data]);
    expect(noReason.code).toBe(1);
    expect(noReason.stderr).toContain('a purge needs a reason');
    expect((await api(srv.url, '/api/packages/sql-injection/1.0.0')).status).toBe(200);
    const unknown = await runAvp(['registry', 'purge', 'sql-injection@9.9.9', '--reason', 'x', '--data', srv.data]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('sql-injection@9.9.9 is not on this registry');
    const r = await runAvp([
      'registry',
      'purge',
      'sql-injection@1.0.0',
      '--reason',
      'takedown request 12',
      '--by',
      'alice',
      '--json',
      '--data',
      srv.data,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'sql-injection', archiveRemoved: true, latest: null });
    expect((await api(srv.url, '/api/packages/sql-injection/1.0.0')).status).toBe(404);
    expect((await api(srv.url, '/api/packages/sql-injection/1.0.0/download')).status).toBe(404);
    expect((await api(srv.url, '/api/search?q=sql-injection')).body.results).toEqual([]);
    expect(filesUnder(srv.data).some((f) => f.endsWith(`${key}.zip`))).toBe(false);
    const db = new Database(join(srv.data, 'registry.db'), { readonly: true });
    const rows = db
      .query(
        `SELECT action, package AS name, version, target AS integrity, account AS actor, detail AS reason
         FROM audit_log WHERE action = 'purge'`,
      )
      .all();
    db.close();
    expect(rows).toEqual([
      {
        action: 'purge',
        name: 'sql-injection',
        version: '1.0.0',
        integrity: v.integrity,
        actor: 'alice',
        reason: 'takedown request 12',
      },
    ]);
    // The name stays with its owner: nobody else can publish it now that it has no version.
    const squat = await publishZip(srv.url, packageZip('sql-injection', '1.0.1'), admin.replace(/./, 'x'));
    expect(squat.status).toBe(401);
    const other = (await createToken(srv.data, 'mallory')).token;
    expect((await publishZip(srv.url, packageZip('sql-injection', '2.0.0'), other)).status).toBe(403);
  });

  test('the integrity a version is served with is the sha512 of its bytes (the reference checks it on download)', async () => {
    const v = (await api(srv.url, '/api/packages/secrets-audit/latest')).body;
    const bytes = new Uint8Array(await (await fetch(v.downloadUrl)).arrayBuffer());
    expect(v.integrity).toBe(`sha512-${createHash('sha512').update(bytes).digest('base64')}`);
  });
});
