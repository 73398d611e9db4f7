import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AvpError } from '../src/errors.ts';
import type { Archives } from './archives.ts';
import { BlobStore } from './blobs.ts';
import { writePages } from './pages/export-pages.ts';
import { detailOf, summaryOf, versionListOf, versionOf } from './shapes.ts';
import type { PackageRow, Store } from './store.ts';

/**
 * A static copy of the read path that any static host (a CDN, an object store, nginx) can serve without the server.
 * Every JSON answer is `<url path>/index.json` and every archive is the file `<name>/<version>/download`, so a host
 * that maps `/x` to `/x/index.json` (nginx `try_files $uri $uri/index.json`; `registry/static-server.ts`) answers
 * the same URLs the clients call. Static hosts cannot run queries: `GET /api/packages` returns every package and
 * ignores `q`, `type`, `tag`, `limit` and `offset` (clients that filter locally still work; others see everything).
 * The web pages are written beside the API (`index.html`, `packages/<name>/index.html`, …: registry/pages/).
 */
export interface ExportResult {
  dir: string;
  packages: number;
  versions: number;
  files: number;
}

/**
 * Writes the export into `dir` (which must not exist or be empty). It is built in a temp sibling and renamed into
 * place, so a failed export leaves nothing half-written.
 */
export async function exportRegistry(
  store: Store,
  archives: Archives,
  dir: string,
  baseUrl: string,
): Promise<ExportResult> {
  const target = resolve(dir);
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) {
    throw new AvpError('registry-export-base-url', `--base-url ${JSON.stringify(baseUrl)} is not an http(s) URL`, {
      fix: 'pass the URL the export will be served from, e.g. --base-url https://cdn.example.com/avp',
    });
  }
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    throw new AvpError('registry-export-not-empty', `${target} exists and is not an empty directory`, {
      fix: 'export into a new directory (then swap it in), or remove the old export first',
    });
  }
  const base = baseUrl.replace(/\/+$/, '');
  mkdirSync(dirname(target), { recursive: true });
  const tmp = join(dirname(target), `.${basename(target)}.tmp-${randomBytes(6).toString('hex')}`);
  let files = 0;
  let versionCount = 0;
  const put = (path: string, value: unknown) => {
    const file = join(tmp, path, 'index.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(value)}\n`);
    files++;
  };
  try {
    const all = await store.allPackages();
    const listed = all.filter((p): p is PackageRow & { latest: string } => p.latest !== null);
    put('api/health', { status: 'ok', static: true, exportedAt: new Date().toISOString() });
    put('api/packages', {
      packages: listed.map(summaryOf),
      total: listed.length,
      limit: listed.length,
      offset: 0,
    });
    for (const pkg of all) {
      const versions = await store.listVersions(pkg.name, { includeYanked: true });
      const root = `api/packages/${encodeURIComponent(pkg.name)}`;
      put(`${root}/versions`, versionListOf(pkg.name, versions));
      if (pkg.latest) {
        put(root, detailOf(pkg as PackageRow & { latest: string }, versions));
        const latest = versions.find((v) => v.version === pkg.latest);
        if (latest) put(`${root}/latest`, versionOf(latest, pkg.type, base));
      }
      for (const v of versions) {
        put(`${root}/${encodeURIComponent(v.version)}`, versionOf(v, pkg.type, base));
        const blob = await archives.read(BlobStore.keyOfIntegrity(v.integrity));
        if (!blob) {
          throw new AvpError(
            'registry-export-missing-blob',
            `the archive of ${pkg.name}@${v.version} is missing from the archive storage (${archives.where})`,
            {
              fix: 'restore the archives from a backup (blobs/ folder, archives table or bucket); metadata and archives must come from the same registry',
            },
          );
        }
        writeFileSync(
          join(tmp, root, encodeURIComponent(v.version), 'download'),
          new Uint8Array(await blob.arrayBuffer()),
        );
        files++;
        versionCount++;
      }
    }
    files += await writePages(store, archives, tmp, base);
    if (existsSync(target)) rmdirSync(target);
    renameSync(tmp, target);
    return { dir: target, packages: all.length, versions: versionCount, files };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
