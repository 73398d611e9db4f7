/**
 * `avp search` and `avp info` without a registry: when it cannot be reached (or `--offline`), they answer from the
 * catalog embedded in avp, and say so on stderr. Only network and timeout failures fall back: a registry that
 * answers (404, 401, 5xx) is believed.
 */
import { isAvpError } from '../errors.ts';
import { isProblem, parseFrontmatter } from '../validator/frontmatter.ts';
import type { CatalogEntry } from '../catalog/types.ts';

/** The registry client's "never got an answer" errors: unreachable, or out of time. */
export function registryDown(e: unknown): boolean {
  return isAvpError(e) && (e.code === 'registry-unreachable' || /timeout|timed-out|deadline/.test(e.code));
}

/** One catalog validator, with the fields of its VALIDATOR.md that a registry page shows. */
export interface CatalogPackage extends CatalogEntry {
  tags: string[];
  license?: string;
  author?: string;
}

/** Every catalog validator with its tags, license and author (read from the embedded VALIDATOR.md). */
export async function catalogPackages(): Promise<CatalogPackage[]> {
  const { listCatalog, readCatalogValidator } = await import('../catalog/index.ts');
  const out: CatalogPackage[] = [];
  for (const entry of await listCatalog()) {
    const files = (await readCatalogValidator(entry.name))?.files ?? [];
    const main = files.find((f) => f.path === 'VALIDATOR.md');
    const fm = main ? parseFrontmatter(new TextDecoder().decode(main.data)) : undefined;
    const data = fm && !isProblem(fm) ? (fm.data as Record<string, any>) : {};
    out.push({
      ...entry,
      tags: Array.isArray(data.tags) ? data.tags.map(String) : [],
      license: typeof data.license === 'string' ? data.license : undefined,
      author: typeof data.metadata?.author === 'string' ? data.metadata.author : undefined,
    });
  }
  return out;
}

/** Catalog validators whose name, description or tags contain every word of `query` (case-insensitive). */
export function matchCatalog(all: CatalogPackage[], query: string, tag?: string): CatalogPackage[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return all.filter((p) => {
    if (tag && !p.tags.includes(tag)) return false;
    const text = `${p.name} ${p.description} ${p.tags.join(' ')}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The stderr line that says where the answer came from and why (`--offline`, or the registry's failure). */
export function fallbackNote(failure?: unknown): string {
  if (failure === undefined) return 'offline: answering from the catalog embedded in avp, not the registry';
  const why = failure instanceof Error ? failure.message : String(failure);
  return `${why}; answering from the catalog embedded in avp instead (it may be older than the registry)`;
}
