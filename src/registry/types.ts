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
}

export interface VersionList {
  name: string;
  versions: Array<{ version: string; publishedAt: string }>;
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
