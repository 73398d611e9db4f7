import { treeIntegrity, type ArchiveInfo } from './archive.ts';
import { entrySegments } from './archive-rules.ts';
import type { Fetched } from './sources.ts';

/** The shape `readCatalogValidator` returns (contract with the catalog). */
interface CatalogEntry {
  name: string;
  version: string;
  files: Array<{ path: string; data: Uint8Array }>;
}

/**
 * A validator of the embedded first-party catalog as a fetched package: recorded as `catalog:<name>@<version>` with
 * an integrity over its files (there are no archive bytes). A single-file catalog validator (`name.md`) is
 * installed in the directory form (`name/VALIDATOR.md`), the layout every install has.
 */
export async function catalogPackage(name: string): Promise<Fetched | undefined> {
  const { readCatalogValidator } = await import('../catalog/index.ts');
  const entry: CatalogEntry | undefined = await readCatalogValidator(name);
  if (!entry) return undefined;
  let files = entry.files.map((f) => ({ path: f.path, data: f.data }));
  if (!files.some((f) => f.path === 'VALIDATOR.md')) {
    const md = files.filter((f) => f.path.endsWith('.md') && !f.path.includes('/'));
    if (md.length === 1) files = files.map((f) => (f === md[0] ? { ...f, path: 'VALIDATOR.md' } : f));
  }
  // Catalog scripts must stay executable after install.
  const withModes = files.map((f) => {
    entrySegments(f.path);
    return f.path.startsWith('scripts/') && !f.path.endsWith('.md') ? { ...f, mode: 0o755 } : f;
  });
  const info: ArchiveInfo = {
    type: 'validator',
    top: entry.name,
    files: withModes,
    manifest: { name: entry.name, version: entry.version },
  };
  return {
    info,
    name: entry.name,
    version: entry.version,
    source: 'catalog',
    resolved: `catalog:${entry.name}@${entry.version}`,
    integrity: treeIntegrity(info.files),
  };
}
