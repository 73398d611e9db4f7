import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { deserialize } from './registry-dialect-types.ts';
import {
  api,
  createToken,
  packageZip,
  publishZip,
  startServerProcess,
  type ServerProcess,
} from './registry-server-support.ts';

/**
 * avp's server answering requests as the reference client makes them: a version spec put into the path as typed
 * (`name@^1.0` → `/api/packages/name/^1.0`) resolves to the highest matching published, unyanked version.
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
