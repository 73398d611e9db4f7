/**
 * A small real registry on 127.0.0.1 speaking the public AVP registry API (notes/registry-api.md), for the client's
 * tests. Honest by default; each version can be made to lie: omit its integrity, send a wrong one, or serve any
 * bytes (hostile archives are built by the tests). It also answers the auth endpoints and the browser login start page.
 */
import { createHash } from 'node:crypto';
import { inspectArchive } from '../../src/registry-client/archive.ts';

export interface ServedVersion {
  version: string;
  bytes: Uint8Array;
  /** 'honest' (default), 'omit' (no integrity field), 'wrong' (integrity of other bytes), 'null' (integrity: null). */
  integrity?: 'honest' | 'omit' | 'wrong' | 'null';
  yanked?: boolean;
  publishedAt?: string;
  /** The download sends half of the bytes, then drops the connection. */
  disconnect?: boolean;
  /** The `type` the metadata claims (default validator). */
  type?: string;
  /** The download answers 302 to this URL (a CDN or object store on another origin). */
  redirectTo?: string;
}

export interface HostileRegistry {
  url: string;
  /** Every request seen: method, path (with query) and the Authorization header. */
  requests: Array<{ method: string; path: string; auth: string | null }>;
  /** Adds (or replaces) a version. */
  serve(name: string, v: ServedVersion): void;
  /** Uploads received by POST /api/packages. */
  uploads: Array<{ filename: string; type: string; bytes: Uint8Array }>;
  /**
   * Answers `METHOD /path` (query ignored) with `answer` instead of the honest registry: endless or gzip-bombed
   * bodies, slow trickles, redirects anywhere, malformed JSON. The function gets the base URL.
   */
  lie(method: string, path: string, answer: (base: string, req: Request) => Response | Promise<Response>): void;
  close(): Promise<void>;
}

export const GOOD_TOKEN = 'tok_live_0123456789abcdef';
const LOGIN_CODE = 'code-from-browser';

const sri = (b: Uint8Array) => `sha512-${createHash('sha512').update(b).digest('base64')}`;

export async function startHostileRegistry(opts: { failHealth?: boolean } = {}): Promise<HostileRegistry> {
  const packages = new Map<string, ServedVersion[]>();
  const requests: HostileRegistry['requests'] = [];
  const uploads: HostileRegistry['uploads'] = [];
  const lies = new Map<string, (base: string, req: Request) => Response | Promise<Response>>();
  let base = '';

  const json = (body: unknown, status = 200) => Response.json(body, { status });
  const notFound = (what: string) => json({ error: 'not_found', error_description: `${what} not found` }, 404);
  const visible = (name: string) => (packages.get(name) ?? []).filter((v) => !v.yanked);
  const semverKey = (v: string) =>
    v
      .split(/[.-]/)
      .map((p) => p.padStart(8, '0'))
      .join('.');
  const latestOf = (name: string) =>
    visible(name).sort((a, b) => (semverKey(a.version) < semverKey(b.version) ? 1 : -1))[0];
  const authorized = (req: Request) => req.headers.get('authorization') === `Bearer ${GOOD_TOKEN}`;

  const versionBody = (name: string, v: ServedVersion) => {
    const body: Record<string, unknown> = {
      name,
      version: v.version,
      downloadUrl: `${base}/api/packages/${encodeURIComponent(name)}/${v.version}/download`,
      size: v.bytes.length,
      publishedAt: v.publishedAt ?? '2026-01-01T00:00:00Z',
      type: v.type ?? 'validator',
    };
    if (v.integrity === 'wrong') body.integrity = sri(new TextEncoder().encode('other bytes'));
    else if (v.integrity === 'null') body.integrity = null;
    else if (v.integrity !== 'omit') body.integrity = sri(v.bytes);
    return body;
  };
  const summary = (name: string) => ({
    name,
    description: `${name} validator`,
    author: 'tester',
    latest: latestOf(name)?.version ?? '',
    tags: ['test'],
    type: 'validator',
    downloads: 3,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-02T00:00:00Z',
  });

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      requests.push({ method: req.method, path: url.pathname + url.search, auth: req.headers.get('authorization') });
      const lie = lies.get(`${req.method} ${url.pathname}`);
      if (lie) return lie(base, req);
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (url.pathname === '/api/health')
        return opts.failHealth ? new Response('down', { status: 503 }) : json({ ok: true });
      if (url.pathname === '/cli/auth/start') {
        const redirect = url.searchParams.get('redirect_uri')!;
        const state = url.searchParams.get('state')!;
        return Response.redirect(`${redirect}?code=${LOGIN_CODE}&state=${encodeURIComponent(state)}`, 302);
      }
      if (url.pathname === '/cli/success' || url.pathname === '/cli/error') return new Response('done');
      if (url.pathname === '/api/auth/cli/verify') {
        // Echoes the presented token in the error, as careless servers do: the client must mask it.
        const presented = req.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
        return authorized(req)
          ? json({ valid: true, email: 'dev@example.com', name: 'Dev' })
          : json({ error: 'invalid_token', error_description: `token ${presented} is invalid or revoked` }, 401);
      }
      if (url.pathname === '/api/auth/cli/token') {
        if (req.method === 'DELETE')
          return authorized(req) ? new Response(null, { status: 204 }) : json({ message: 'unauthorized' }, 401);
        const body = (await req.json()) as { code?: string };
        return body.code === LOGIN_CODE
          ? json({ access_token: GOOD_TOKEN, email: 'dev@example.com', name: 'Dev' })
          : json({ error_description: 'bad code' }, 400);
      }
      if (parts[0] !== 'api' || parts[1] !== 'packages') return notFound(url.pathname);
      if (parts.length === 2 && req.method === 'GET') {
        const q = url.searchParams.get('q') ?? '';
        const names = [...packages.keys()].filter((n) => n.includes(q) && latestOf(n));
        const limit = Number(url.searchParams.get('limit') ?? 20);
        return json({ packages: names.slice(0, limit).map(summary), total: names.length, limit, offset: 0 });
      }
      if (parts.length === 2 && req.method === 'POST') {
        if (!authorized(req)) return json({ error_description: 'authentication required' }, 401);
        const form = await req.formData();
        const file = form.get('package') as File;
        const bytes = new Uint8Array(await file.arrayBuffer());
        uploads.push({ filename: file.name, type: file.type, bytes });
        let manifest: { name: string; version: string };
        try {
          manifest = (await inspectArchive(bytes)).manifest;
        } catch (e) {
          return json({ error_description: (e as Error).message }, 400);
        }
        if (packages.get(manifest.name)?.some((v) => v.version === manifest.version)) {
          return json(
            { error: 'conflict', error_description: `${manifest.name}@${manifest.version} already exists` },
            409,
          );
        }
        const list = packages.get(manifest.name) ?? [];
        packages.set(manifest.name, [...list, { version: manifest.version, bytes }]);
        return json(
          {
            name: manifest.name,
            version: manifest.version,
            published: true,
            downloadUrl: `${base}/api/packages/${manifest.name}/${manifest.version}/download`,
          },
          201,
        );
      }
      if (parts[2] === 'updates' && req.method === 'POST') {
        const body = (await req.json()) as { installed: Array<{ name: string; version: string }> };
        const updates = body.installed.flatMap((p) => {
          const l = latestOf(p.name);
          return l && semverKey(l.version) > semverKey(p.version)
            ? [{ name: p.name, currentVersion: p.version, latestVersion: l.version, updateType: 'minor' }]
            : [];
        });
        return json({ updates });
      }
      const name = parts[2]!;
      const all = packages.get(name);
      if (!all) return notFound(`package ${name}`);
      if (parts.length === 3) {
        return json({
          ...summary(name),
          license: 'MIT',
          versions: visible(name).map((v) => v.version),
          readme: '# readme',
        });
      }
      if (parts[3] === 'latest') {
        const l = latestOf(name);
        return l ? json(versionBody(name, l)) : notFound('latest version');
      }
      if (parts[3] === 'versions')
        return json({
          name,
          versions: visible(name).map((v) => ({ version: v.version, publishedAt: '2026-01-01T00:00:00Z' })),
        });
      const v = all.find((x) => x.version === parts[3]);
      if (!v) return notFound(`${name}@${parts[3]}`);
      if (req.method === 'DELETE') {
        if (!authorized(req)) return json({ error_description: 'authentication required' }, 401);
        v.yanked = true;
        return new Response(null, { status: 204 });
      }
      if (parts[4] === 'download') {
        if (v.redirectTo) return Response.redirect(v.redirectTo, 302);
        if (v.disconnect) {
          // Half the bytes, then silence until the server cuts the connection after 1 s idle. (Erroring the stream
          // instead drops it too, but Bun then reports the error as unhandled in whichever test runs next.)
          const half = v.bytes.subarray(0, v.bytes.length >> 1);
          server.timeout(req, 1);
          const body = new ReadableStream({
            start(c) {
              c.enqueue(half);
            },
          });
          return new Response(body, { headers: { 'content-length': String(v.bytes.length) } });
        }
        return new Response(v.bytes, { headers: { 'content-type': 'application/zip' } });
      }
      return json(versionBody(name, v));
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  return {
    url: base,
    requests,
    uploads,
    lie(method, path, answer) {
      lies.set(`${method} ${path}`, answer);
    },
    serve(name, v) {
      const list = packages.get(name) ?? [];
      packages.set(name, [...list.filter((x) => x.version !== v.version), v]);
    },
    async close() {
      await server.stop(true);
    },
  };
}
