import { highestMatching } from '../src/registry-client/semver.ts';
import { BlobStore } from './blobs.ts';
import { badRequest, json, notFound } from './errors.ts';
import { detailOf, summaryOf, versionListOf, versionOf } from './shapes.ts';
import type { Ctx } from './server.ts';
import type { PackageRow } from './store.ts';

/**
 * The read path: search, detail, latest, one version, the version list, and downloads. All anonymous; a Bearer
 * token sent along (old clients always send one) is ignored here, even a stale one.
 */

const MAX_LIMIT = 100;

function intParam(url: URL, key: string, fallback: number, max: number): number {
  const raw = url.searchParams.get(key);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw badRequest(`query parameter ${key} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return Math.min(n, max);
}

/** `GET /api/packages?q=&type=&tag=&limit=&offset=` */
export async function search(ctx: Ctx, url: URL): Promise<Response> {
  const limit = intParam(url, 'limit', 20, MAX_LIMIT);
  const offset = intParam(url, 'offset', 0, Number.MAX_SAFE_INTEGER);
  const { rows, total } = await ctx.store.search({
    q: (url.searchParams.get('q') ?? '').slice(0, 200),
    type: url.searchParams.get('type') ?? '',
    tag: url.searchParams.get('tag') ?? '',
    limit,
    offset,
  });
  return json({ packages: rows.map((p) => summaryOf(p as PackageRow & { latest: string })), total, limit, offset });
}

/** The package or 404; a package whose every version is yanked is not resolvable, so it is 404 here too. */
async function resolvable(ctx: Ctx, name: string): Promise<PackageRow & { latest: string }> {
  const pkg = await ctx.store.getPackage(name);
  if (!pkg) throw notFound(`package ${name} not found`);
  if (!pkg.latest) throw notFound(`every version of ${name} is yanked; an exact version is still downloadable`);
  return pkg as PackageRow & { latest: string };
}

/** `GET /api/packages/{name}` */
export async function detail(ctx: Ctx, name: string): Promise<Response> {
  const pkg = await resolvable(ctx, name);
  return json(detailOf(pkg, await ctx.store.listVersions(name, { includeYanked: true })));
}

/** `GET /api/packages/{name}/latest` */
export async function latest(ctx: Ctx, req: Request, name: string): Promise<Response> {
  const pkg = await resolvable(ctx, name);
  const v = await ctx.store.getVersion(name, pkg.latest);
  if (!v) throw notFound(`package ${name} has no version ${pkg.latest}`);
  return json(versionOf(v, pkg.type, ctx.baseUrl(req)));
}

/**
 * `GET /api/packages/{name}/{version}` — yanked versions answer too (flagged), for exact lockfile pins. The reference
 * client puts the spec into the path as typed (`name@^1.0` → `/api/packages/name/%5E1.0`), so a spec that is no
 * stored version resolves as the client does: `v1.0.0` as `1.0.0`, a range to its highest unyanked version.
 */
export async function version(ctx: Ctx, req: Request, name: string, ver: string): Promise<Response> {
  const pkg = await ctx.store.getPackage(name);
  if (!pkg) throw notFound(`package ${name} not found`);
  let v = await ctx.store.getVersion(name, ver);
  if (!v) {
    const listed = (await ctx.store.listVersions(name, { includeYanked: false })).map((r) => r.version);
    const best = highestMatching(listed, ver);
    if (best) v = await ctx.store.getVersion(name, best);
  }
  if (!v) throw notFound(`package ${name} has no version matching ${ver}`);
  return json(versionOf(v, pkg.type, ctx.baseUrl(req)));
}

/** `GET /api/packages/{name}/versions` */
export async function versions(ctx: Ctx, name: string): Promise<Response> {
  const pkg = await ctx.store.getPackage(name);
  if (!pkg) throw notFound(`package ${name} not found`);
  return json(versionListOf(name, await ctx.store.listVersions(name, { includeYanked: true })));
}

/** `GET /api/packages/{name}/{version}/download` — the zip; versions are immutable, so it is cacheable forever. */
export async function download(ctx: Ctx, req: Request, name: string, ver: string): Promise<Response> {
  const v = await ctx.store.getVersion(name, ver);
  if (!v) throw notFound(`package ${name}@${ver} not found`);
  const file = await ctx.archives.read(BlobStore.keyOfIntegrity(v.integrity));
  if (!file) throw notFound(`the archive of ${name}@${ver} is missing from the blob store`);
  if (req.method === 'GET') await ctx.store.countDownload(name);
  return new Response(file, {
    headers: {
      'content-type': 'application/zip',
      'content-length': String(file.size),
      'x-content-type-options': 'nosniff',
      'content-disposition': `attachment; filename="${name}-${ver}.zip"`,
      'cache-control': 'public, max-age=31536000, immutable',
      etag: `"${v.integrity}"`,
    },
  });
}
