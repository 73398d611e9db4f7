import { resolve } from 'node:path';
import { VERSION } from '../src/version.ts';
import { openArchives, type Archives } from './archives.ts';
import type { Origin } from './audit.ts';
import { baseUrlFor, requireBaseUrl } from './base-url.ts';
import { BlobStore } from './blobs.ts';
import { LIMITS } from './body.ts';
import { HttpError, badRequest, json, notFound, toResponse } from './errors.ts';
import { health } from './health.ts';
import { MetadataCache } from './metadata-cache.ts';
import { DEFAULT_WRITES_PER_MINUTE } from './rate-limit.ts';
import { routePage } from './routes-pages.ts';
import * as auth from './routes-auth.ts';
import * as read from './routes-read.ts';
import * as write from './routes-write.ts';
import { Store } from './store.ts';

/** What every handler gets. */
export interface Ctx {
  store: Store;
  blobs: BlobStore;
  /** Where archives are stored and read: files, the database or object storage (registry/archives.ts). */
  archives: Archives;
  /** Writes per token per minute (0: no limit). */
  writeLimit: number;
  /** The peer address and X-Forwarded-For of a request, for the audit log. */
  originOf(req: Request): Origin;
  /** The public base URL for `downloadUrl`s: `--base-url`, else a loopback origin the request was addressed to. */
  baseUrl(req: Request): string;
  /** Package-metadata answers kept while their package is unchanged (registry/metadata-cache.ts). */
  cache?: MetadataCache;
}

export interface ServeOptions {
  /** Data directory: `registry.db` (SQLite) and `blobs/`. */
  dataDir: string;
  /** `postgres://…` to keep metadata in PostgreSQL (blobs stay under dataDir); default the SQLite file. */
  db?: string;
  port?: number;
  host?: string;
  baseUrl?: string;
  /** `file`, `db` or `s3://bucket/prefix`; default `db` with PostgreSQL, else `file`. */
  archives?: string;
  /** Writes per token per minute (default 120; 0 turns the limit off). */
  writeLimit?: number;
  /** Called with each unexpected error (the command logs it on stderr). */
  onError?: (e: unknown, req: Request) => void;
}

export interface RunningRegistry {
  url: string;
  port: number;
  store: Store;
  /** The archive storage's kind: file, db or s3. */
  archives: string;
  stop(): Promise<void>;
}

function methodNotAllowed(allow: string): HttpError {
  return new HttpError(405, 'method_not_allowed', `use ${allow} on this path`, { allow });
}

/** Splits `/api/packages/owner%2Frepo/1.0.0` into decoded segments; `%2F` stays inside its segment. */
function segmentsOf(pathname: string): string[] {
  let seg: string[];
  try {
    seg = pathname
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    throw badRequest('the path is not valid percent-encoding');
  }
  // PostgreSQL refuses NUL in text (a 500) and SQLite cuts strings at it (a search matching everything).
  if (seg.some((s) => s.includes('\0'))) throw badRequest('the path contains a NUL byte (%00)', 'nul_byte');
  return seg;
}

/** Query values reach the store too: NUL is refused there as in the path. */
function checkQuery(url: URL): void {
  for (const [k, v] of url.searchParams)
    if (k.includes('\0') || v.includes('\0'))
      throw badRequest(`query parameter ${JSON.stringify(k.replace(/\0/g, ''))} contains a NUL byte`, 'nul_byte');
}

/** Routes one request to its handler (exported so the API can be embedded in another Bun.serve). */
export async function route(ctx: Ctx, req: Request): Promise<Response> {
  const url = new URL(req.url);
  const m = req.method === 'HEAD' ? 'GET' : req.method;
  const seg = segmentsOf(url.pathname);
  checkQuery(url);
  if (seg[0] === 'cli') {
    if (seg[1] === 'auth' && seg[2] === 'start' && seg.length === 3) {
      if (m !== 'GET' && m !== 'POST') throw methodNotAllowed('GET, POST');
      return auth.loginPage(ctx, req, url);
    }
    if ((seg[1] === 'success' || seg[1] === 'error') && seg.length === 2) return auth.loginDone(url);
    throw notFound(`no such page ${url.pathname}`);
  }
  if (seg[0] !== 'api') {
    const page = await routePage(ctx, req, url, seg, m);
    if (page) return page;
  }
  if (seg.length === 0)
    return json({
      name: 'avp registry',
      version: VERSION,
      api: '/api/packages',
      search: '/api/search',
      health: '/api/health',
    });
  if (seg[0] !== 'api') throw notFound(`no such path ${url.pathname}; the API lives under /api/`);
  const [, area, a, b, c] = seg;
  if (area === 'health' && seg.length === 2) return health(ctx);
  if (area === 'auth' && a === 'cli' && seg.length === 4) {
    if (b === 'verify') {
      if (m !== 'GET') throw methodNotAllowed('GET');
      return auth.verify(ctx, req);
    }
    if (b === 'token') {
      if (m === 'POST') return auth.exchange(ctx, req);
      if (m === 'DELETE') return auth.logout(ctx, req);
      throw methodNotAllowed('POST, DELETE');
    }
  }
  if (area === 'search' && seg.length === 2) {
    if (m !== 'GET') throw methodNotAllowed('GET');
    const { fuzzySearch } = await import('./fuzzy-search.ts');
    return fuzzySearch(ctx, url);
  }
  if (area !== 'packages') throw notFound(`no such endpoint ${url.pathname}`);
  if (seg.length === 2) {
    if (m === 'GET') return read.search(ctx, url);
    if (m === 'POST') return write.publish(ctx, req);
    throw methodNotAllowed('GET, POST');
  }
  const name = a!;
  // The metadata reads, answered from the cache while the package is unchanged (the key holds the base URL: the
  // version answers carry absolute download URLs).
  const cached = (build: () => Promise<Response>) =>
    ctx.cache ? ctx.cache.answer(name, `${ctx.baseUrl(req)}\n${url.pathname}`, build) : build();
  if (seg.length === 3) {
    if (name === 'updates' && m === 'POST') return write.updates(ctx, req);
    if (m === 'GET') return cached(() => read.detail(ctx, name));
    throw methodNotAllowed('GET');
  }
  if (seg.length === 4) {
    if (b === 'latest' || b === 'versions' || b === 'owners') {
      if (m !== 'GET') throw methodNotAllowed('GET');
      if (b === 'latest') return cached(() => read.latest(ctx, req, name));
      return b === 'versions' ? cached(() => read.versions(ctx, name)) : write.listOwners(ctx, name);
    }
    if (m === 'GET') return cached(() => read.version(ctx, req, name, b!));
    if (m === 'DELETE') return write.yank(ctx, req, name, b!);
    throw methodNotAllowed('GET, DELETE');
  }
  if (seg.length === 5 && c === 'download') {
    if (m !== 'GET') throw methodNotAllowed('GET');
    return read.download(ctx, req, name, b!);
  }
  if (seg.length === 5 && b === 'owners') {
    if (m === 'PUT' || m === 'DELETE') return write.changeOwner(ctx, req, name, c!);
    throw methodNotAllowed('PUT, DELETE');
  }
  throw notFound(`no such endpoint ${url.pathname}`);
}

/** Opens the store and blob directory and serves the API until `stop()`. */
export async function startRegistry(opts: ServeOptions): Promise<RunningRegistry> {
  const dataDir = resolve(opts.dataDir);
  requireBaseUrl(opts.host ?? '127.0.0.1', opts.baseUrl);
  const store = await Store.open(dataDir, opts.db);
  const blobs = new BlobStore(dataDir);
  blobs.cleanStrays();
  let ownUrl = '';
  const origins = new WeakMap<Request, Origin>();
  let server: ReturnType<typeof Bun.serve>;
  let sweeper: ReturnType<typeof setInterval> | undefined;
  let archives: Archives;
  let cache: MetadataCache | undefined;
  try {
    archives = await openArchives(opts.archives, store, blobs);
    const ctx: Ctx = {
      store,
      blobs,
      archives,
      writeLimit: opts.writeLimit ?? DEFAULT_WRITES_PER_MINUTE,
      originOf: (req) => origins.get(req) ?? { ip: null, forwardedFor: null },
      baseUrl: baseUrlFor(opts.baseUrl?.replace(/\/+$/, ''), () => ownUrl),
      cache: (cache = new MetadataCache(store, store.file)),
    };
    // Objects of uploads whose server was killed mid-publish: swept at start and every few minutes after.
    const sweep = () => archives.sweep().catch((e: unknown) => opts.onError?.(e, new Request('http://sweep/')));
    await sweep();
    sweeper = setInterval(sweep, 5 * 60_000);
    sweeper.unref();
    server = serve(ctx, opts, origins);
  } catch (e) {
    clearInterval(sweeper);
    cache?.close();
    await store.close();
    throw e;
  }
  const url = `http://${server.hostname?.includes(':') ? `[${server.hostname}]` : server.hostname}:${server.port}`;
  ownUrl = url;
  return {
    url,
    port: server.port ?? 0,
    store,
    archives: archives.kind,
    async stop() {
      clearInterval(sweeper);
      await server.stop(true);
      cache?.close();
      await store.close();
    },
  };
}

function serve(ctx: Ctx, opts: ServeOptions, origins: WeakMap<Request, Origin>): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    port: opts.port ?? 0,
    hostname: opts.host ?? '127.0.0.1',
    maxRequestBodySize: LIMITS.hardBodyBytes,
    // Uploads of 10 MiB over a slow link must not be cut off by the default 10 s idle timeout.
    idleTimeout: 120,
    async fetch(req, srv) {
      origins.set(req, { ip: srv.requestIP(req)?.address ?? null, forwardedFor: req.headers.get('x-forwarded-for') });
      try {
        const res = await route(ctx, req);
        return req.method === 'HEAD' ? new Response(null, { status: res.status, headers: res.headers }) : res;
      } catch (e) {
        if (!(e instanceof HttpError)) opts.onError?.(e, req);
        return toResponse(e);
      }
    },
    error(e) {
      opts.onError?.(e, new Request('http://invalid/'));
      return toResponse(e);
    },
  });
}
