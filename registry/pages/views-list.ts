import type { PackageRow } from '../store.ts';
import { date, esc, href, layout, type Site } from './html.ts';

function item(site: Site, p: PackageRow): string {
  const tags = p.tags.map((t) => `<a href="${esc(`${site.root}/?q=${encodeURIComponent(t)}`)}">#${esc(t)}</a>`);
  const words = [p.name, p.description, ...p.tags].join(' ').toLowerCase();
  return `<li data-search="${esc(words)}"><a class="name" href="${esc(href(site, 'packages', p.name))}">${esc(p.name)}</a>
<span class="badge">${esc(p.latest ?? 'yanked')}</span>
<p>${esc(p.description)}</p>
<p class="muted">by ${esc(p.author)} · updated ${date(p.updated_at)} · ${esc(p.downloads)} downloads${tags.length ? ` · <span class="tags">${tags.join(' ')}</span>` : ''}</p></li>`;
}

/** The packages as a list (search results, an owner's packages, the static home). */
export function packageList(site: Site, rows: PackageRow[]): string {
  return rows.length ? `<ul class="packages">${rows.map((p) => item(site, p)).join('\n')}</ul>` : '';
}

/** Home and search results. `page` links the next and previous pages of a server-side search. */
export function homePage(
  site: Site,
  opts: { q: string; rows: PackageRow[]; total: number; offset: number; limit: number },
): string {
  const { q, rows, total, offset, limit } = opts;
  const heading = q ? `Validators matching “${esc(q)}”` : 'Validators';
  const nav: string[] = [];
  const pageLink = (o: number, text: string) =>
    `<a href="${esc(`${site.root}/?${new URLSearchParams({ ...(q ? { q } : {}), offset: String(o) })}`)}">${text}</a>`;
  if (!site.static && offset > 0) nav.push(pageLink(Math.max(0, offset - limit), '← Previous'));
  if (!site.static && offset + rows.length < total) nav.push(pageLink(offset + limit, 'Next →'));
  const shown = site.static
    ? `<p id="count" class="muted" role="status">${total} ${total === 1 ? 'package' : 'packages'}</p>`
    : `<p class="muted" role="status">${total} ${total === 1 ? 'package' : 'packages'}${total > rows.length ? `, ${offset + 1}–${offset + rows.length} shown` : ''}</p>`;
  const empty = rows.length
    ? ''
    : `<p>${q ? 'Nothing matches; try fewer or other words.' : 'Nothing is published here yet: <code>avp publish ./my-validator</code>.'}</p>`;
  const body = `<h1>${heading}</h1>
<p class="muted">Validators check what coding agents change, from their hooks. Search by name, description or tag.</p>
${shown}
${empty}
${packageList(site, rows)}
${nav.length ? `<nav aria-label="Pages"><p>${nav.join(' · ')}</p></nav>` : ''}`;
  return layout(site, {
    title: q ? `${q} · avp registry` : 'avp registry',
    body,
    q,
    scripts: site.static ? ['search.js'] : [],
  });
}

/** The packages an account owns. */
export function ownerPage(site: Site, account: string, rows: PackageRow[]): string {
  const body = `<h1>${esc(account)}</h1>
<p class="muted">Owner of ${rows.length} ${rows.length === 1 ? 'package' : 'packages'}.</p>
${packageList(site, rows) || '<p>This account owns no packages.</p>'}`;
  return layout(site, { title: `${account} · avp registry`, body });
}

/** A 404 page that says what was not found and where to go. */
export function notFoundPage(site: Site, what: string): string {
  const body = `<h1>Not found</h1><p>${esc(what)}</p><p><a href="${esc(`${site.root}/`)}">Search the registry</a></p>`;
  return layout(site, { title: 'Not found · avp registry', body });
}
