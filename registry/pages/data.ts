import type { Archives } from '../archives.ts';
import { BlobStore } from '../blobs.ts';
import { factsFromArchive, parseFacts, type Facts } from '../facts.ts';
import type { PackageRow, Store, VersionRow } from '../store.ts';
import type { PackageView } from './views-package.ts';

/**
 * What the pages read from the store. Versions published before `versions.facts` existed get their facts from the
 * archive on first view, written back so the next view reads one column.
 */
async function factsFor(store: Store, archives: Archives, v: VersionRow): Promise<Facts> {
  const stored = parseFacts((v as VersionRow & { facts?: unknown }).facts);
  if (stored) return stored;
  const fallback: Facts = { match: {}, body: v.readme ?? '', files: [] };
  try {
    const blob = await archives.read(BlobStore.keyOfIntegrity(v.integrity));
    if (!blob) return fallback;
    const facts = await factsFromArchive(new Uint8Array(await blob.arrayBuffer()));
    await store.db`UPDATE versions SET facts = ${JSON.stringify(facts)} WHERE name = ${v.name} AND version = ${v.version}`;
    return facts;
  } catch {
    return fallback;
  }
}

/**
 * The package page's data: undefined when the package does not exist, 'no-version' when `version` is not one of its
 * versions. Without `version`, the latest is shown (or the newest when every version is yanked).
 */
export async function packageView(
  store: Store,
  archives: Archives,
  name: string,
  version?: string,
): Promise<PackageView | undefined | 'no-version'> {
  const pkg = await store.getPackage(name);
  if (!pkg) return undefined;
  const versions = await store.listVersions(name, { includeYanked: true });
  const shown = version
    ? versions.find((v) => v.version === version)
    : (versions.find((v) => v.version === pkg.latest) ?? versions[0]);
  if (!shown) return 'no-version';
  const [owners, facts] = await Promise.all([store.owners(name), factsFor(store, archives, shown)]);
  return { pkg, versions, owners, shown, facts };
}

/** Packages an account owns, by name (fully yanked ones too: the owner still answers for them). */
export async function ownedBy(store: Store, account: string): Promise<PackageRow[]> {
  const rows = (await store.db`SELECT name FROM owners WHERE account = ${account} ORDER BY name`) as Array<{
    name: string;
  }>;
  const out: PackageRow[] = [];
  for (const r of rows) {
    const pkg = await store.getPackage(r.name);
    if (pkg) out.push(pkg);
  }
  return out;
}
