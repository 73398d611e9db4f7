import { zipSync } from 'fflate';
import { AvpError } from '../src/errors.ts';

/** The outcome for one catalog validator. */
export interface SeedResult {
  name: string;
  version: string;
  status: 'published' | 'exists' | 'failed';
  /** The server's error for a failure. */
  detail?: string;
}

/**
 * The registry archive of a catalog validator: every file under one top folder named after it, directory entries
 * included, as `avp publish` packs a directory.
 */
function catalogZip(name: string, files: Array<{ path: string; data: Uint8Array }>): Uint8Array {
  const entries: Record<string, Uint8Array> = { [`${name}/`]: new Uint8Array(0) };
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) entries[`${name}/${parts.slice(0, i).join('/')}/`] = new Uint8Array(0);
    entries[`${name}/${f.path}`] = f.data;
  }
  return zipSync(entries, { level: 6, mtime: new Date(2000, 0, 1) });
}

/**
 * Publishes every validator of the embedded catalog (or the named ones) to a registry through its normal publish
 * endpoint (`POST /api/packages`, so the server checks each like any upload). Already published versions (409) are
 * reported as `exists`, which makes seeding repeatable; other refusals are `failed` with the server's message.
 */
export async function seedCatalog(opts: { registry: string; token: string; only?: string[] }): Promise<SeedResult[]> {
  const { listCatalog, readCatalogValidator } = await import('../src/catalog/index.ts');
  const base = opts.registry.replace(/\/+$/, '');
  const entries = await listCatalog();
  const unknown = (opts.only ?? []).filter((n) => !entries.some((e) => e.name === n));
  if (unknown.length) {
    throw new AvpError('catalog-unknown', `not in the catalog: ${unknown.join(', ')}`, {
      fix: `choose among ${entries.map((e) => e.name).join(', ')}`,
    });
  }
  const results: SeedResult[] = [];
  for (const entry of entries) {
    if (opts.only?.length && !opts.only.includes(entry.name)) continue;
    const v = await readCatalogValidator(entry.name);
    if (!v) continue;
    const form = new FormData();
    form.append('package', new File([catalogZip(v.name, v.files)], 'package.zip', { type: 'application/zip' }));
    let res: Response;
    try {
      res = await fetch(`${base}/api/packages`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${opts.token}` },
      });
    } catch (e) {
      throw new AvpError(
        'registry-unreachable',
        `cannot reach ${base}: ${e instanceof Error ? e.message : String(e)}`,
        {
          fix: 'check --registry and that the server runs (avp registry serve)',
        },
      );
    }
    const body = (await res.json().catch(() => ({}))) as { error_description?: string; message?: string };
    if (res.status === 401) {
      throw new AvpError(
        'registry-unauthorized',
        `${base} refused the token: ${body.error_description ?? res.status}`,
        {
          fix: 'pass --token or set AVP_TOKEN to a token of that registry (avp registry token create)',
        },
      );
    }
    if (res.ok) results.push({ name: v.name, version: v.version, status: 'published' });
    else if (res.status === 409) results.push({ name: v.name, version: v.version, status: 'exists' });
    else
      results.push({
        name: v.name,
        version: v.version,
        status: 'failed',
        detail: `${res.status} ${body.error_description ?? body.message ?? ''}`.trim(),
      });
  }
  return results;
}
