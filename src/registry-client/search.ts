import { AvpError } from '../errors.ts';
import type { RegistryClient } from './api.ts';

/** One row of `avp search`, whichever endpoint answered. */
export interface SearchRow {
  name: string;
  /** `owner/repo/name` on registries that route installs that way (fuzzy search only). */
  qualifiedName?: string;
  description: string;
  author: string;
  /** Empty when the registry's fuzzy search does not say (the reference's hits carry no version). */
  latest: string;
  tags: string[];
  type?: string;
  downloads: number;
  /** The fuzzy match's score (higher is closer); absent for the plain listing. */
  score?: number;
}

export interface SearchAnswer {
  packages: SearchRow[];
  total: number;
  limit: number;
  offset: number;
  /** Which endpoint answered: the fuzzy `/api/search`, or the `/api/packages` listing. */
  endpoint: '/api/search' | '/api/packages';
}

/** Statuses that mean "this registry has no fuzzy search" (older registries, avp's before it had one). */
const NOT_OFFERED = new Set(['registry-404', 'registry-405', 'registry-501']);

/**
 * `avp search`: the registry's fuzzy search (`GET /api/search`, ranked by a fuzzy match) when it offers one, else
 * the plain listing (`GET /api/packages?q=`). `--tag` needs the listing (the fuzzy search has no tag filter).
 * Only validators are shown: other package types are left out, also when the registry ignores `type=validator`.
 */
export async function searchRegistry(
  client: RegistryClient,
  query: string,
  opts: { tag?: string; limit: number },
): Promise<SearchAnswer> {
  if (!opts.tag) {
    try {
      const r = await client.fuzzySearch(query, { limit: opts.limit, type: 'validator' });
      const kept = r.results.filter((h) => !h.type || h.type === 'validator');
      const packages = kept.slice(0, opts.limit).map((h): SearchRow => ({
        name: h.name,
        ...(h.qualified_name && h.qualified_name !== h.name ? { qualifiedName: h.qualified_name } : {}),
        description: h.description,
        author: h.author,
        latest: typeof h.latest === 'string' ? h.latest : '',
        tags: Array.isArray(h.tags) ? h.tags.filter((t) => typeof t === 'string') : [],
        type: h.type ?? undefined,
        downloads: h.downloads,
        score: h.score,
      }));
      const total = Math.max(packages.length, r.total - (r.results.length - kept.length));
      return { packages, total, limit: opts.limit, offset: 0, endpoint: '/api/search' };
    } catch (e) {
      if (!(e instanceof AvpError) || !NOT_OFFERED.has(e.code)) throw e;
    }
  }
  const r = await client.search(query, { tag: opts.tag, limit: opts.limit });
  const packages = r.packages
    .filter((p) => !p.type || p.type === 'validator')
    .map((p): SearchRow => ({ ...p, type: p.type ?? undefined }));
  return { packages, total: r.total, limit: r.limit ?? opts.limit, offset: r.offset ?? 0, endpoint: '/api/packages' };
}
