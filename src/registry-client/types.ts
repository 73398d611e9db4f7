/** The public registry's wire shapes (documented in docs/registry-client.md). Unknown fields are ignored. */

export type PackageKind = 'skill' | 'validator' | 'tool' | 'plugin' | 'agent';

export interface PackageSummary {
  name: string;
  description: string;
  author: string;
  latest: string;
  tags: string[];
  type?: PackageKind;
  downloads: number;
  createdAt: string;
  updatedAt: string;
}

export interface SearchResult {
  packages: PackageSummary[];
  total: number;
  limit: number;
  offset: number;
}

/** One hit of `GET /api/search` (the fuzzy search; snake_case `qualified_name` as the reference sends it). */
export interface FuzzyHit {
  name: string;
  qualified_name?: string | null;
  description: string;
  author: string;
  type?: string | null;
  downloads: number;
  score: number;
  /** avp's server adds these (the reference's fuzzy hits carry no version); other registries may not. */
  latest?: string;
  tags?: string[];
}

/** `GET /api/search?q=&limit=` */
export interface FuzzySearchResult {
  results: FuzzyHit[];
  total: number;
}

export interface PackageDetail {
  name: string;
  description: string;
  author: string;
  license?: string | null;
  tags: string[];
  type?: PackageKind | null;
  versions: string[];
  latest: string;
  downloads: number;
  createdAt: string;
  updatedAt: string;
  readme?: string | null;
}

export interface PackageVersion {
  name: string;
  version: string;
  downloadUrl: string;
  /** Required by avp: a version without it is refused. */
  integrity?: string | null;
  size: number;
  publishedAt: string;
  description?: string | null;
  author?: string | null;
  license?: string | null;
  tags?: string[] | null;
  type?: PackageKind | null;
  /** avp's registry: the version's test cases and the publisher's report of them. */
  tests?: unknown;
}

export interface VersionList {
  name: string;
  versions: Array<{ version: string; publishedAt: string }>;
}

/** `DELETE /api/packages/{name}/{version}`: the reference reads `deleted`; avp's server yanks (`yanked: true`). */
export interface UnpublishResult {
  deleted?: boolean;
  yanked?: boolean;
  name?: string;
  version?: string;
}

export interface PublishResult {
  name: string;
  version: string;
  published: boolean;
  downloadUrl: string;
}

export interface UpdateInfo {
  name: string;
  currentVersion: string;
  latestVersion: string;
  updateType: string;
}

export interface VerifyResult {
  valid?: boolean;
  email?: string;
  name?: string;
  error?: string;
  error_description?: string;
}

export interface TokenExchange {
  access_token: string;
  email: string;
  name: string;
}
