/**
 * The first-party validator catalog embedded in the binary (validators/ → embedded.generated.ts at build time).
 * The generated module is imported lazily: only `avp list --available`, `avp add` and `avp init` pay for it.
 */
import type { CatalogEntry, CatalogFile } from './types.ts';

const load = () => import('./embedded.generated.ts');

/** Every catalog validator, sorted by name. */
export async function listCatalog(): Promise<CatalogEntry[]> {
  const { ENTRIES } = await load();
  return ENTRIES.map((e) => ({ ...e }));
}

function bytesOf(file: CatalogFile): Uint8Array {
  return file.base64 !== undefined
    ? Uint8Array.from(Buffer.from(file.base64, 'base64'))
    : new TextEncoder().encode(file.text ?? '');
}

/**
 * A catalog validator's files (paths relative to its directory, `/`-separated, `VALIDATOR.md` included), or
 * undefined when the catalog has no validator of that name.
 */
export async function readCatalogValidator(
  name: string,
): Promise<{ name: string; version: string; files: Array<{ path: string; data: Uint8Array }> } | undefined> {
  const { ENTRIES, FILES } = await load();
  const entry = ENTRIES.find((e) => e.name === name);
  const files = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!entry || !files) return undefined;
  return { name, version: entry.version, files: files.map((f) => ({ path: f.path, data: bytesOf(f) })) };
}
