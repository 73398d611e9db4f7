import type { VersionTests } from '../src/registry-client/version-tests.ts';
import { parseFacts } from './facts.ts';
import type { PackageRow, VersionRow } from './store.ts';

/**
 * The JSON shapes of the public registry API (see docs/registry-server.md). Field names are exact; optional fields
 * are left out rather than sent as null, because the existing clients require non-null values for fields they read.
 */
export interface Summary {
  name: string;
  description: string;
  author: string;
  latest: string;
  tags: string[];
  type: string;
  downloads: number;
  createdAt: string;
  updatedAt: string;
}

export interface Detail extends Summary {
  license?: string;
  /** Resolvable versions, newest first; yanked ones are listed apart in `yanked` (an avp extension). */
  versions: string[];
  yanked: string[];
  readme?: string;
}

export interface VersionJson {
  name: string;
  version: string;
  downloadUrl: string;
  integrity: string;
  size: number;
  publishedAt: string;
  description: string;
  author: string;
  license?: string;
  tags: string[];
  type: string;
  /** Present (true) only on a yanked version, which stays fetchable by exact version for lockfile pins. */
  yanked?: true;
  yankedAt?: string;
  /** avp extension: the version's case files and its publisher's report of running them. */
  tests?: VersionTests;
}

/** `{base}/api/packages/{name}/{version}/download`, with the name percent-encoded like the clients do. */
export function downloadUrl(base: string, name: string, version: string): string {
  return `${base.replace(/\/+$/, '')}/api/packages/${encodeURIComponent(name)}/${encodeURIComponent(version)}/download`;
}

export function summaryOf(p: PackageRow & { latest: string }): Summary {
  return {
    name: p.name,
    description: p.description,
    author: p.author,
    latest: p.latest,
    tags: p.tags,
    type: p.type,
    downloads: p.downloads,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
  };
}

export function detailOf(p: PackageRow & { latest: string }, versions: VersionRow[]): Detail {
  const detail: Detail = {
    ...summaryOf(p),
    versions: versions.filter((v) => !v.yanked).map((v) => v.version),
    yanked: versions.filter((v) => v.yanked).map((v) => v.version),
  };
  if (p.license) detail.license = p.license;
  if (p.readme) detail.readme = p.readme;
  return detail;
}

export function versionOf(v: VersionRow, type: string, base: string): VersionJson {
  const out: VersionJson = {
    name: v.name,
    version: v.version,
    downloadUrl: downloadUrl(base, v.name, v.version),
    integrity: v.integrity,
    size: v.size,
    publishedAt: v.published_at,
    description: v.description,
    author: v.author,
    tags: v.tags,
    type,
  };
  if (v.license) out.license = v.license;
  const tests = parseFacts((v as VersionRow & { facts?: unknown }).facts)?.tests;
  if (tests) out.tests = tests;
  if (v.yanked) {
    out.yanked = true;
    if (v.yanked_at) out.yankedAt = v.yanked_at;
  }
  return out;
}

/** `{name, versions: [{version, publishedAt}]}`; yanked versions go to the `yanked` list (avp extension). */
export function versionListOf(name: string, versions: VersionRow[]) {
  return {
    name,
    versions: versions.filter((v) => !v.yanked).map((v) => ({ version: v.version, publishedAt: v.published_at })),
    yanked: versions
      .filter((v) => v.yanked)
      .map((v) => ({ version: v.version, publishedAt: v.published_at, yankedAt: v.yanked_at })),
  };
}
