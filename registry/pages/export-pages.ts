import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Archives } from '../archives.ts';
import type { PackageRow, Store } from '../store.ts';
import { ASSETS } from './assets.ts';
import { ownedBy, packageView } from './data.ts';
import type { Site } from './html.ts';
import { packagePage } from './views-package.ts';
import { homePage, notFoundPage, ownerPage } from './views-list.ts';

/**
 * The web pages of a static export: `index.html` (every package; search filters them in the browser),
 * `packages/<name>/index.html`, `packages/<name>/<version>/index.html`, `owners/<account>/index.html`, `404.html`
 * and `assets/*` — the same pages `avp registry serve` renders, with links under the export's base URL path.
 * Returns the number of files written.
 */
export async function writePages(store: Store, archives: Archives, dir: string, baseUrl: string): Promise<number> {
  const site: Site = { root: new URL(baseUrl).pathname.replace(/\/+$/, ''), base: baseUrl, static: true };
  let files = 0;
  const put = (path: string, body: string) => {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, body);
    files++;
  };
  for (const [name, asset] of Object.entries(ASSETS)) put(join('assets', name), asset.body);
  const all = await store.allPackages();
  const listed = all.filter((p): p is PackageRow & { latest: string } => p.latest !== null);
  put('index.html', homePage(site, { q: '', rows: listed, total: listed.length, offset: 0, limit: listed.length }));
  put('404.html', notFoundPage(site, 'Nothing is published at this address.'));
  const owners = new Set<string>();
  for (const pkg of all) {
    const view = await packageView(store, archives, pkg.name);
    if (!view || view === 'no-version') continue;
    view.owners.forEach((o) => owners.add(o));
    put(join('packages', encodeURIComponent(pkg.name), 'index.html'), packagePage(site, view, false));
    for (const v of view.versions) {
      const one = await packageView(store, archives, pkg.name, v.version);
      if (!one || one === 'no-version') continue;
      put(
        join('packages', encodeURIComponent(pkg.name), encodeURIComponent(v.version), 'index.html'),
        packagePage(site, one, true),
      );
    }
  }
  for (const account of owners)
    put(
      join('owners', encodeURIComponent(account), 'index.html'),
      ownerPage(site, account, await ownedBy(store, account)),
    );
  return files;
}
