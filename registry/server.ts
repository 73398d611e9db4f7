import { resolve } from 'node:path';
import { VERSION } from '../src/version.ts';
import { baseUrlFor, requireBaseUrl } from './base-url.ts';
import { BlobStore } from './blobs.ts';
import { LIMITS } from './body.ts';
import { HttpError, badRequest, json, notFound, toResponse } from './errors.ts';
import * as auth from './routes-auth.ts';
import * as read from './routes-read.ts';
import * as write from './routes-write.ts';
import { Store } from './store.ts';

/** What every handler gets. */
export interface Ctx {
  store: Store;
  blobs: BlobStore;
  /** The public base URL for `downloadUrl`s: `--base-url`, else a loopback origin the request was addressed to. */
  baseUrl(req: Request): string;
}

export interface ServeOptions {
  /** Data directory: `registry.db` (SQLite) and `blobs/`. */
  dataDir: string;
  /** `postgres://…` to keep metadata in PostgreSQL (blobs stay under dataDir); default the SQLite file. */
  db?: string;
  port?: number;
  host?: string;
  baseUrl?: string;
  /** Called with each unexpected error (the command logs it on stderr). */
  onError?: (e: unknown, req: Request) => void;
}

export interface RunningRegistry {
  url: string;
  port: number;
  store: Store;
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
  if (area === 'health' && seg.length === 2) return json({ status: 'ok', version: VERSION, engine: ctx.store.engine });
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
  if (seg.length === 3) {
    if (name === 'updates' && m === 'POST') return write.updates(ctx, req);
    if (m === 'GET') return read.detail(ctx, name);
    throw methodNotAllowed('GET');
  }
  if (seg.length === 4) {
    if (b === 'latest' || b === 'versions' || b === 'owners') {
      if (m !== 'GET') throw methodNotAllowed('GET');
      if (b === 'latest') return read.latest(ctx, req, name);
      return b === 'versions' ? read.versions(ctx, name) : write.listOwners(ctx, name);
    }
    if (m === 'GET') return read.version(ctx, req, name, b!);
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
  const ctx: Ctx = { store, blobs, baseUrl: baseUrlFor(opts.baseUrl?.replace(/\/+$/, ''), () => ownUrl) };
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = serve(ctx, opts);
  } catch (e) {
    await store.close();
    throw e;
  }
  const url = `http://${server.hostname?.includes(':') ? `[${server.hostname}]` : server.hostname}:${server.port}`;
  ownUrl = url;
  return {
    url,
    port: server.port ?? 0,
    store,
    async stop() {
      await server.stop(true);
      await store.close();
    },
  };
}

function serve(ctx: Ctx, opts: ServeOptions): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    port: opts.port ?? 0,
    hostname: opts.host ?? '127.0.0.1',
    maxRequestBodySize: LIMITS.hardBodyBytes,
    // Uploads of 10 MiB over a slow link must not be cut off by the default 10 s idle timeout.
    idleTimeout: 120,
    async fetch(req) {
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
