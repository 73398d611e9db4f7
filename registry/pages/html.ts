import { VERSION } from '../../src/version.ts';
import { assetPath } from './assets.ts';

/**
 * The page frame shared by every registry web page, and the escaping every value goes through. Pages are plain
 * server-rendered HTML: readable without JavaScript, one stylesheet, no inline script or style (the CSP forbids
 * both, so even a bug in escaping could not run code from a package).
 */

/** Where the pages live: `root` is the path prefix of links ('' on the server), `base` the registry's URL. */
export interface Site {
  root: string;
  base: string;
  /** A static export: search runs in the browser over the listed packages. */
  static: boolean;
}

/** The policy of every page: nothing inline, nothing from another origin, no framing, forms post only here. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy': PAGE_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A link path under the site root; each segment percent-encoded. */
export function href(site: Site, ...segments: string[]): string {
  return `${site.root}/${segments.map(encodeURIComponent).join('/')}${segments.length ? '/' : ''}`;
}

/** `2025-06-01T12:00:00.000Z` → `2025-06-01` in a `<time>` element. */
export function date(iso: string | null | undefined): string {
  if (!iso) return '';
  return `<time datetime="${esc(iso)}">${esc(iso.slice(0, 10))}</time>`;
}

/** The whole document around `body`. `scripts` are asset names (copy.js, search.js). */
export function layout(site: Site, opts: { title: string; body: string; q?: string; scripts?: string[] }): string {
  const scripts = (opts.scripts ?? []).map((s) => `<script src="${site.root}/${assetPath(s)}" defer></script>`);
  const home = `${site.root}/`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(PAGE_CSP.replace(/; frame-ancestors 'none'$/, ''))}">
<meta name="referrer" content="no-referrer">
<title>${esc(opts.title)}</title>
<link rel="stylesheet" href="${site.root}/${assetPath('registry.css')}">
${scripts.join('\n')}
</head><body>
<header class="site"><a class="brand" href="${esc(home)}">avp registry</a>
<form class="search" role="search" method="get" action="${esc(home)}">
<label class="sr-only" for="q">Search validators</label>
<input id="q" name="q" type="search" value="${esc(opts.q ?? '')}" placeholder="Search by name, description or tag" maxlength="200">
<button type="submit">Search</button></form></header>
<main>
${opts.body}
</main>
<footer>Served by avp ${esc(VERSION)}. Validators for the Agent Validator Protocol: install with <code>avp add</code>.${site.static ? ' A static copy.' : ''}</footer>
</body></html>
`;
}
