import { AvpError } from '../errors.ts';
import { redactUserinfo } from '../redact.ts';
import type {
  FuzzySearchResult,
  PackageDetail,
  PackageVersion,
  PublishResult,
  SearchResult,
  TokenExchange,
  UpdateInfo,
  VerifyResult,
  VersionList,
} from './types.ts';

/**
 * Checks that a registry's JSON answer has the types avp reads, so a hostile or broken registry gets one clear
 * "answered something avp does not understand" error instead of a TypeError deep inside a command. Only the fields
 * avp uses are checked; unknown fields are ignored, optional ones may be missing or null.
 */
type Rule = 'string' | 'string?' | 'number?' | 'boolean?' | 'strings?' | 'array';

const SHAPES = {
  version: { name: 'string', version: 'string', downloadUrl: 'string', integrity: 'string?', size: 'number?' },
  summary: { name: 'string', description: 'string?', author: 'string?', latest: 'string?', tags: 'strings?' },
  detail: { name: 'string', versions: 'array', description: 'string?', latest: 'string?', tags: 'strings?' },
  versions: { versions: 'array' },
  listed: { version: 'string', publishedAt: 'string?' },
  search: { packages: 'array', total: 'number?' },
  fuzzy: { results: 'array', total: 'number?' },
  hit: { name: 'string', description: 'string?', author: 'string?', type: 'string?', score: 'number?' },
  publish: { name: 'string', version: 'string', published: 'boolean?', downloadUrl: 'string?' },
  update: { name: 'string', currentVersion: 'string', latestVersion: 'string' },
  verify: { valid: 'boolean?', email: 'string?', name: 'string?' },
  token: { access_token: 'string', email: 'string?', name: 'string?' },
} satisfies Record<string, Record<string, Rule>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fits(v: unknown, rule: Rule): boolean {
  const optional = rule.endsWith('?');
  if (optional && (v === undefined || v === null)) return true;
  switch (rule.replace('?', '')) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'strings':
    case 'array':
      return Array.isArray(v) && (rule === 'array' || v.every((x) => typeof x === 'string'));
  }
  return false;
}

/** The first field of `value` (at `at`) that does not fit `shape`, as `path: what was expected`. */
function mismatch(value: unknown, shape: Record<string, Rule>, at: string): string | undefined {
  if (!isObject(value)) return `${at || 'the answer'}: expected an object, got ${kind(value)}`;
  for (const [key, rule] of Object.entries(shape)) {
    if (!fits(value[key], rule)) {
      const want = rule.replace('?', '').replace('strings', 'list of strings').replace('array', 'list');
      return `${at}${at ? '.' : ''}${key}: expected a ${want}, got ${kind(value[key])}`;
    }
  }
  return undefined;
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

/** Throws the "does not understand" error naming the request and the first wrong field. */
function refuse(what: string, problem: string): never {
  throw new AvpError(
    'registry-bad-response',
    `${redactUserinfo(what)} answered something avp does not understand (${problem.slice(0, 200)})`,
    { fix: 'check that the URL is an AVP registry (it answers /api/health); if it is, report this to its operator' },
  );
}

function check<T>(what: string, value: unknown, shape: Record<string, Rule>): T {
  const bad = mismatch(value, shape, '');
  if (bad) refuse(what, bad);
  return value as T;
}

function checkItems(what: string, list: unknown[], shape: Record<string, Rule>, at: string): void {
  for (let i = 0; i < list.length; i++) {
    const bad = mismatch(list[i], shape, `${at}[${i}]`);
    if (bad) refuse(what, bad);
  }
}

/** Optional display fields filled in, so table and info code never meets undefined. */
function summaryDefaults(p: Partial<Record<'description' | 'author' | 'latest' | 'tags' | 'downloads', unknown>>) {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    description: str(p.description),
    author: str(p.author),
    latest: str(p.latest),
    tags: Array.isArray(p.tags) ? (p.tags as string[]) : [],
    downloads: typeof p.downloads === 'number' && Number.isFinite(p.downloads) ? p.downloads : 0,
  };
}

/** The package type in lower case: the reference accepts any casing (`"Validator"`), so avp does too. */
function lowerType<T extends { type?: unknown }>(x: T): T {
  return typeof x.type === 'string' ? { ...x, type: x.type.toLowerCase() } : x;
}

/** Checks for each endpoint's answer; `what` is `METHOD url` for the message. */
export const answers = {
  version: (what: string, v: unknown) => lowerType(check<PackageVersion>(what, v, SHAPES.version)),
  detail(what: string, v: unknown): PackageDetail {
    const d = check<PackageDetail>(what, v, SHAPES.detail);
    if (!d.versions.every((x) => typeof x === 'string')) refuse(what, 'versions: expected a list of strings');
    return lowerType({ ...d, ...summaryDefaults(d) });
  },
  fuzzy(what: string, v: unknown): FuzzySearchResult {
    const s = check<FuzzySearchResult>(what, v, SHAPES.fuzzy);
    checkItems(what, s.results, SHAPES.hit, 'results');
    const results = s.results.map((h) => {
      const d = summaryDefaults(h);
      return lowerType({
        ...h,
        description: d.description,
        author: d.author,
        downloads: d.downloads,
        score: h.score ?? 0,
      });
    });
    return { results, total: typeof s.total === 'number' ? s.total : results.length };
  },
  versions(what: string, v: unknown): VersionList {
    const l = check<VersionList>(what, v, SHAPES.versions);
    checkItems(what, l.versions, SHAPES.listed, 'versions');
    return l;
  },
  search(what: string, v: unknown): SearchResult {
    const s = check<SearchResult>(what, v, SHAPES.search);
    checkItems(what, s.packages, SHAPES.summary, 'packages');
    return { ...s, packages: s.packages.map((p) => lowerType({ ...p, ...summaryDefaults(p) })) };
  },
  publish: (what: string, v: unknown) => check<PublishResult>(what, v, SHAPES.publish),
  updates(what: string, v: unknown): UpdateInfo[] {
    if (!isObject(v)) refuse(what, `expected an object, got ${kind(v)}`);
    if (v.updates === undefined || v.updates === null) return [];
    if (!Array.isArray(v.updates)) refuse(what, `updates: expected a list, got ${kind(v.updates)}`);
    checkItems(what, v.updates, SHAPES.update, 'updates');
    return v.updates as UpdateInfo[];
  },
  verify: (what: string, v: unknown) => check<VerifyResult>(what, v, SHAPES.verify),
  token: (what: string, v: unknown) => check<TokenExchange>(what, v, SHAPES.token),
};
