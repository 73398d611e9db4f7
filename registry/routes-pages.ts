import { badRequest, notFound } from './errors.ts';
import type { Ctx } from './server.ts';

/**
 * The web pages `avp registry serve` answers beside the API: `/` (home and search), `/packages/{name}`,
 * `/packages/{name}/{version}`, `/owners/{account}` and `/assets/*`. `GET /` is a page only for a browser (an
 * `Accept` naming text/html); API clients keep getting the JSON index there. Page modules load on the first page
 * request: an API-only server never evaluates the markdown renderer.
 */
const PAGE_SIZE = 30;

function wantsHtml(req: Request): boolean {
  return /\btext\/html\b/.test(req.headers.get('accept') ?? '');
}

/** A page response for the path, or undefined when the path is not a page (the API router answers it). */
export async function routePage(
  ctx: Ctx,
  req: Request,
  url: URL,
  seg: string[],
  method: string,
): Promise<Response | undefined> {
  const [first, a, b] = seg;
  const isPage =
    (seg.length === 0 && wantsHtml(req)) ||
    (first === 'packages' && (seg.length === 2 || seg.length === 3)) ||
    (first === 'owners' && seg.length === 2) ||
    (first === 'assets' && seg.length === 2);
  // Any other path a browser asks for gets a page saying so (API clients keep the JSON 404).
  const lost = !isPage && first !== 'cli' && wantsHtml(req) && method === 'GET';
  if ((!isPage && !lost) || method !== 'GET') return undefined;
  if (first === 'assets') {
    const { ASSETS } = await import('./pages/assets.ts');
    const asset = ASSETS[a!];
    if (!asset) throw notFound(`no such asset ${a}`);
    return new Response(asset.body, {
      headers: {
        'content-type': asset.type,
        'cache-control': 'public, max-age=86400',
        'x-content-type-options': 'nosniff',
      },
    });
  }
  const [{ PAGE_HEADERS }, views, list, data] = await Promise.all([
    import('./pages/html.ts'),
    import('./pages/views-package.ts'),
    import('./pages/views-list.ts'),
    import('./pages/data.ts'),
  ]);
  const site = { root: '', base: ctx.baseUrl(req), static: false };
  const page = (html: string, status = 200) => new Response(html, { status, headers: PAGE_HEADERS });
  if (lost) return page(list.notFoundPage(site, `Nothing is published at ${url.pathname}.`), 404);
  if (seg.length === 0) {
    const q = (url.searchParams.get('q') ?? '').slice(0, 200);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    if (!Number.isInteger(offset) || offset < 0) throw badRequest('offset must be a non-negative integer');
    const { rows, total } = await ctx.store.search({ q, type: '', tag: '', limit: PAGE_SIZE, offset });
    return page(list.homePage(site, { q, rows, total, offset, limit: PAGE_SIZE }));
  }
  if (first === 'owners') {
    const rows = await data.ownedBy(ctx.store, a!);
    if (!rows.length && !(await ctx.store.accountExists(a!)))
      return page(list.notFoundPage(site, `No account named ${a} publishes here.`), 404);
    return page(list.ownerPage(site, a!, rows));
  }
  const view = await data.packageView(ctx.store, ctx.archives, a!, b);
  if (!view) return page(list.notFoundPage(site, `No package named ${a} is published here.`), 404);
  if (view === 'no-version') return page(list.notFoundPage(site, `${a} has no version ${b}.`), 404);
  return page(views.packagePage(site, view, b !== undefined));
}
