import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { deserialize } from './registry-dialect-types.ts';
import { zipOf } from './registry-server-support.ts';

/**
 * A loopback registry that answers exactly as the reference implementation's registry does: every JSON answer is
 * checked against the reference client's types before it is sent. Packages are added by the tests; downloads are
 * counted; `/api/auth/cli/verify` accepts the tokens given; knobs make it redirect the token check elsewhere or
 * trickle a download.
 */

export const DIALECT_FIXTURES = join(import.meta.dir, '../fixtures/registry-dialect');
const sri = (b: Uint8Array) => `sha512-${createHash('sha512').update(b).digest('base64')}`;

/** A fixture folder as the archive `avp publish` would make (top folder `top`), `{{version}}` filled when given. */
export function zipDir(dir: string, top: string, version?: string): Uint8Array {
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
  return zipOf(top, files);
}

export interface Seen {
  method: string;
  path: string;
  auth: string | null;
}

interface Pkg {
  type: string;
  integrity: boolean;
  versions: Map<string, Uint8Array>;
}

export function referenceRegistry() {
  const seen: Seen[] = [];
  const pkgs = new Map<string, Pkg>();
  const downloads = new Map<string, number>();
  const knobs = {
    offerSearch: true,
    /** Tokens `/api/auth/cli/verify` accepts (as `{valid: true, email, name}`); others get a 401. */
    tokens: new Set<string>(),
    /** Where `/api/auth/cli/verify` redirects to (another origin that accepts anything), when set. */
    verifyRedirect: undefined as string | undefined,
    /** Milliseconds between the bytes of a download (headers at once, then the body trickles), when set. */
    trickleMs: 0,
  };
  const answer = (kind: Parameters<typeof deserialize>[0], body: unknown, status = 200) => {
    deserialize(kind, body); // the test server itself never answers outside the reference's types
    return Response.json(body, { status });
  };
  const newest = (p: Pkg) =>
    [...p.versions.keys()].sort((a, b) => Bun.semver.order(b, a)).find((v) => !v.includes('-')) ?? '';
  const trickle = (bytes: Uint8Array) =>
    new Response(
      new ReadableStream({
        async pull(c) {
          for (let i = 0; i < bytes.length; i += 64) {
            c.enqueue(bytes.slice(i, i + 64));
            await Bun.sleep(knobs.trickleMs);
          }
          c.close();
        },
      }),
      { headers: { 'content-type': 'application/zip', 'content-length': String(bytes.length) } },
    );
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    fetch(req): Response {
      const url = new URL(req.url);
      seen.push({ method: req.method, path: url.pathname + url.search, auth: req.headers.get('authorization') });
      const base = `http://127.0.0.1:${server.port}`;
      const seg = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (url.pathname === '/api/auth/cli/verify') {
        if (knobs.verifyRedirect) return Response.redirect(knobs.verifyRedirect, 302);
        const token = req.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
        if (!knobs.tokens.has(token)) return Response.json({ error: 'unauthorized' }, { status: 401 });
        return Response.json({ valid: true, email: 'ref@example.com', name: 'Ref User' });
      }
      if (url.pathname === '/api/search') {
        if (!knobs.offerSearch) return Response.json({ error: 'not_found', message: 'no such route' }, { status: 404 });
        return answer('FuzzySearchResponse', {
          results: [
            {
              name: 'no-secrets',
              description: 'Blocks secrets',
              author: 'acme',
              type: 'Validator',
              downloads: 12,
              score: 0.9,
            },
            { name: 'secret-skill', description: 'A skill', author: 'acme', type: 'skill', downloads: 50, score: 0.8 },
            {
              name: 'secrets-audit',
              qualified_name: 'acme/rules/secrets-audit',
              description: 'Audit',
              author: 'acme',
              type: null,
              downloads: 3,
              score: 0.5,
            },
          ],
          total: 3,
        });
      }
      if (url.pathname === '/api/packages' && req.method === 'GET') {
        return answer('SearchResponse', {
          packages: [
            {
              name: 'no-secrets',
              description: 'Blocks secrets',
              author: 'acme',
              latest: '1.2.0',
              tags: ['security'],
              type: 'Validator',
              downloads: 12,
              createdAt: '2026-01-01T00:00:00Z',
              updatedAt: '2026-01-02T00:00:00Z',
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        });
      }
      if (seg[0] === 'api' && seg[1] === 'packages' && seg[2]) {
        const name = seg[2];
        const p = pkgs.get(name);
        if (req.method === 'DELETE' && seg.length === 4)
          return answer('UnpublishResponse', { deleted: true, name, version: seg[3] });
        if (!p) return Response.json({ error: 'not_found', error_description: `${name} not found` }, { status: 404 });
        if (seg[3] === 'versions') {
          const versions = [...p.versions.keys()].map((version) => ({ version, publishedAt: '2026-01-01T00:00:00Z' }));
          return answer('VersionListResponse', { name, versions });
        }
        const version = seg[3] === 'latest' ? newest(p) : seg[3]!;
        const bytes = p.versions.get(version);
        if (!bytes)
          return Response.json(
            { error: 'not_found', error_description: `${name}@${version} not found` },
            { status: 404 },
          );
        if (seg[4] === 'download') {
          downloads.set(name, (downloads.get(name) ?? 0) + 1);
          if (knobs.trickleMs) return trickle(bytes);
          return new Response(bytes, { headers: { 'content-type': 'application/zip' } });
        }
        return answer('VersionDetail', {
          name,
          version,
          type: p.type,
          downloadUrl: `${base}/api/packages/${name}/${version}/download`,
          ...(p.integrity ? { integrity: sri(bytes) } : {}),
          size: bytes.length,
          publishedAt: '2026-01-01T00:00:00Z',
          description: null,
          author: null,
          license: null,
          tags: null,
        });
      }
      return Response.json({ error: 'not_found' }, { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    seen,
    knobs,
    /** Serves `bytes` as `name@version` (type as the registry records it; `integrity: false` leaves it out). */
    add(name: string, version: string, bytes: Uint8Array, opts: { type?: string; integrity?: boolean } = {}) {
      const p = pkgs.get(name) ?? {
        type: opts.type ?? 'Validator',
        integrity: opts.integrity ?? true,
        versions: new Map(),
      };
      p.versions.set(version, bytes);
      pkgs.set(name, p);
    },
    downloadsOf: (name: string) => downloads.get(name) ?? 0,
    setOfferSearch: (v: boolean) => (knobs.offerSearch = v),
    stop: () => server.stop(true),
  };
}

export type ReferenceRegistry = ReturnType<typeof referenceRegistry>;
