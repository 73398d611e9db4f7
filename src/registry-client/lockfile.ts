import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AvpError } from '../errors.ts';
import { avpHome, projectAvpDir, projectValidatorsDir, userValidatorsDir } from '../paths.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';

export type Scope = 'user' | 'project';
export type SourceKind = 'registry' | 'catalog' | 'file' | 'git' | 'url';

/**
 * One installed package. The first four fields are the earlier avp client's lockfile shape; the rest are avp's
 * additions (extra fields are ignored by that client).
 */
export interface LockEntry {
  version: string;
  /** Download URL, `catalog:<name>@<v>`, `file:<abs>`, `git+<url>#<sha>` or the https archive URL. */
  resolved: string;
  /** SRI sha512: of the archive bytes (registry, url) or of the file tree (catalog, file, git). */
  integrity: string;
  /** RFC 3339. */
  installedAt: string;
  source: SourceKind;
  /** The registry base for registry installs (update and install --frozen ask the same one). */
  registry?: string;
  /** What the user asked for (`^1.2.0`, `latest`, a git ref…); `avp update` stays within it. */
  requested?: string;
  /** Integrity of the installed file tree, whatever the source (lets `install --frozen` check the directory). */
  treeIntegrity?: string;
  /**
   * Catalog entries only: the registry that was asked for this name and could not answer, so avp's embedded copy
   * stood in. `avp update` asks that registry again; a catalog entry without it was asked for on purpose
   * (`catalog:NAME`, `--offline`) and stays with the catalog.
   */
  fallbackFrom?: string;
}

export interface Lockfile {
  version: '1.0.0';
  lockfileVersion: 1;
  packages: Record<string, LockEntry>;
}

/** The folder a scope's validators, lockfile, staging area and lock live in: `~/.avp` or `<project>/.avp`. */
export function scopeHome(scope: Scope, projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return scope === 'user' ? avpHome(env) : projectAvpDir(projectRoot);
}

/** `~/.avp/validators` (user) or `<project>/.avp/validators` (project). */
export function scopeValidatorsDir(scope: Scope, projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return scope === 'user' ? userValidatorsDir(env) : projectValidatorsDir(projectRoot);
}

/** `~/.avp/avp-lock.json` (user) or `<project>/.avp/avp-lock.json` (project) — never the current directory. */
export function lockfilePath(scope: Scope, projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(scopeHome(scope, projectRoot, env), 'avp-lock.json');
}

/** A lockfile with no packages (what a missing file reads as). */
function emptyLockfile(): Lockfile {
  return { version: '1.0.0', lockfileVersion: 1, packages: {} };
}

/** Reads a lockfile (missing → empty); invalid JSON or an unknown lockfileVersion is an error naming the file. */
export function readLockfile(path: string): Lockfile {
  if (!existsSync(path)) return emptyLockfile();
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new AvpError('lockfile-invalid', `${path} is not valid JSON: ${(e as Error).message}`, {
      fix: 'restore it from version control (git checkout -- .avp/avp-lock.json), or delete it and re-add the validators',
      file: path,
    });
  }
  const lf = data as Partial<Lockfile>;
  if (!lf || typeof lf !== 'object' || typeof lf.packages !== 'object' || lf.packages === null) {
    throw new AvpError('lockfile-invalid', `${path} has no "packages" object`, {
      fix: 'restore it from version control',
      file: path,
    });
  }
  if (lf.lockfileVersion !== undefined && lf.lockfileVersion !== 1) {
    throw new AvpError(
      'lockfile-version',
      `${path} is lockfileVersion ${lf.lockfileVersion}; this avp reads version 1`,
      {
        fix: 'upgrade avp',
        file: path,
      },
    );
  }
  const packages: Record<string, LockEntry> = {};
  for (const [name, raw] of Object.entries(lf.packages)) packages[name] = readEntry(path, name, raw);
  return { version: '1.0.0', lockfileVersion: 1, packages };
}

/**
 * One entry, checked: version, resolved and integrity must be strings. A missing `source` (lockfiles written by the
 * earlier client, or by hand) is inferred from `resolved`: the earlier client installed from registries only.
 */
function readEntry(path: string, name: string, raw: unknown): LockEntry {
  const e = raw as Partial<LockEntry> | null;
  const missing = ['version', 'resolved', 'integrity'].filter(
    (k) => typeof (e as Record<string, unknown> | null)?.[k] !== 'string',
  );
  if (!e || typeof e !== 'object' || missing.length) {
    throw new AvpError('lockfile-invalid', `${path}: entry "${name}" has no string ${missing.join(', ') || 'fields'}`, {
      fix: `restore the file from version control, or remove the entry and re-add it: avp add ${name}`,
      file: path,
    });
  }
  const entry = { ...e } as LockEntry;
  if (!entry.source) entry.source = inferSource(entry.resolved);
  else if (!SOURCES.includes(entry.source)) {
    throw new AvpError('lockfile-invalid', `${path}: entry "${name}" has unknown source "${String(entry.source)}"`, {
      fix: `use one of ${SOURCES.join(', ')}, or upgrade avp (a newer avp may have written it)`,
      file: path,
    });
  }
  return entry;
}

const SOURCES: SourceKind[] = ['registry', 'catalog', 'file', 'git', 'url'];

/** The source an entry's `resolved` implies (for entries written before `source` existed). */
export function inferSource(resolved: string): SourceKind {
  if (resolved.startsWith('catalog:')) return 'catalog';
  if (resolved.startsWith('file:')) return 'file';
  if (resolved.startsWith('git+')) return 'git';
  return 'registry';
}

/** Writes atomically (temp file + rename) with packages in name order, so diffs in version control stay small. */
export function writeLockfile(path: string, lf: Lockfile): void {
  const packages: Record<string, LockEntry> = {};
  for (const name of Object.keys(lf.packages).sort()) packages[name] = lf.packages[name]!;
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify({ version: '1.0.0', lockfileVersion: 1, packages }, null, 2)}\n`);
}
