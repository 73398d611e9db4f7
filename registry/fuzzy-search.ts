import { editDistance } from '../src/did-you-mean.ts';
import { badRequest, json } from './errors.ts';
import type { Ctx } from './server.ts';

/**
 * `GET /api/search?q=&limit=[&type=]` — the fuzzy search the reference's clients call (its CLI's interactive search,
 * its desktop app): `{results: [{name, qualified_name, description, author, type, downloads, score}], total}`.
 * Ranked by how closely the query matches the name (exact, prefix, inside, a typo away, letters in order), then its
 * words in the description and tags; ties by downloads, then name. avp adds `latest` and `tags` to each hit (the
 * reference's hits carry no version; its client ignores unknown fields).
 */

const MAX_LIMIT = 100;
/** Hits below this score are noise (a query that shares a letter or two with a name). */
const MIN_SCORE = 0.3;
/** Packages scanned per query: the registry is read whole, so it is bounded (a registry this size needs an index). */
const MAX_SCANNED = 20_000;

interface Candidate {
  name: string;
  description: string;
  author: string;
  type: string;
  downloads: number;
  latest: string;
  tags: string[];
}

/** 1 for identical strings, falling with the edit distance relative to the longer one. */
function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - editDistance(a, b) / longest;
}

/** True when the letters of `q` appear in `s` in order (`nsec` in `no-secrets`). */
function inOrder(q: string, s: string): boolean {
  let i = 0;
  for (const ch of s) if (ch === q[i]) i++;
  return i === q.length;
}

/** How well `query` (lower case, trimmed, non-empty) matches a package, 0…1. */
export function scoreOf(query: string, p: Pick<Candidate, 'name' | 'description' | 'tags'>): number {
  const name = p.name.toLowerCase();
  const words = query.split(/[\s-]+/).filter(Boolean);
  let best = 0;
  if (name === query) best = 1;
  else if (name.startsWith(query)) best = 0.9 + 0.05 * (query.length / name.length);
  else if (name.includes(query)) best = 0.8 + 0.05 * (query.length / name.length);
  else if (query.length <= 64) {
    // A typo: the whole name, or one of its hyphen-separated parts, a short edit away.
    const parts = [name, ...name.split('-')];
    const close = Math.max(...parts.map((part) => similarity(query, part)));
    if (close >= 0.6) best = 0.75 * close;
    if (query.length >= 3 && inOrder(query, name)) best = Math.max(best, 0.45 + 0.2 * (query.length / name.length));
  }
  // Words found in the description or the tags (each word counts once).
  const text = `${p.description} ${p.tags.join(' ')}`.toLowerCase();
  const found = words.filter((w) => w.length >= 2 && text.includes(w)).length;
  if (words.length && found) best = Math.max(best, 0.3 + 0.3 * (found / words.length));
  return Math.round(best * 1000) / 1000;
}

function limitOf(url: URL): number {
  const raw = url.searchParams.get('limit');
  if (raw === null || raw === '') return 20;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw badRequest(`query parameter limit must be a positive integer, got ${JSON.stringify(raw)}`);
  return Math.min(n, MAX_LIMIT);
}

/** The resolvable packages (at least one non-yanked version), with their tags. */
async function candidates(ctx: Ctx, type: string): Promise<Candidate[]> {
  const db = ctx.store.db;
  const rows = (await db`SELECT name, description, author, type, downloads, latest FROM packages
    WHERE latest IS NOT NULL AND (${type} = '' OR lower(type) = ${type})
    ORDER BY downloads DESC, name ASC LIMIT ${MAX_SCANNED}`) as Array<Omit<Candidate, 'tags'>>;
  const tags = new Map<string, string[]>();
  for (const t of (await db`SELECT name, tag FROM package_tags ORDER BY tag`) as Array<{ name: string; tag: string }>)
    tags.set(t.name, [...(tags.get(t.name) ?? []), t.tag]);
  return rows.map((r) => ({ ...r, downloads: Number(r.downloads), tags: tags.get(r.name) ?? [] }));
}

/** `GET /api/search`; an empty query lists the most downloaded packages (score 0) for the reference's clients. */
export async function fuzzySearch(ctx: Ctx, url: URL): Promise<Response> {
  const query = (url.searchParams.get('q') ?? '').trim().toLowerCase().slice(0, 200);
  const limit = limitOf(url);
  const type = (url.searchParams.get('type') ?? '').toLowerCase();
  const all = await candidates(ctx, type);
  const scored = all
    .map((p) => ({ p, score: query ? scoreOf(query, p) : 0 }))
    .filter((h) => !query || h.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score || b.p.downloads - a.p.downloads || (a.p.name < b.p.name ? -1 : 1));
  const results = scored.slice(0, limit).map(({ p, score }) => ({
    name: p.name,
    qualified_name: p.name,
    description: p.description,
    author: p.author,
    type: p.type,
    downloads: p.downloads,
    score,
    latest: p.latest,
    tags: p.tags,
  }));
  return json({ results, total: scored.length });
}
