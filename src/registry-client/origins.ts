/**
 * Where each discovered validator came from, for `avp list`: the lockfile entry of its scope when avp installed it
 * (registry, catalog, file, git, url), else `local` — a validator written by hand, which no lockfile records.
 */
import { join, resolve } from 'node:path';
import { isAvpError } from '../errors.ts';
import type { Validator } from '../validator/types.ts';
import { lockfilePath, readLockfile, scopeValidatorsDir, type LockEntry, type SourceKind } from './lockfile.ts';

export interface Origin {
  source: SourceKind | 'local';
  /** The lockfile's version, else the frontmatter's `metadata.version` (or a top-level `version`), if any. */
  version?: string;
  resolved?: string;
  registry?: string;
  /** The catalog copy stood in for this registry, which could not serve the name when it was installed. */
  fallbackFrom?: string;
}

export interface Origins {
  /** By validator id. */
  byId: Map<string, Origin>;
  /** Lockfiles that could not be read (their validators show as `local`); said on stderr, never fatal. */
  problems: string[];
}

/** The origin of every validator, reading each scope's lockfile once. */
export function originsOf(validators: Validator[], projectRoot: string, env: NodeJS.ProcessEnv): Origins {
  const problems: string[] = [];
  const scopes = new Map<string, { dir: string; packages: Record<string, LockEntry> }>();
  const scopeOf = (scope: Validator['source']) => {
    let s = scopes.get(scope);
    if (!s) {
      let packages: Record<string, LockEntry> = {};
      try {
        packages = readLockfile(lockfilePath(scope, projectRoot, env)).packages;
      } catch (e) {
        if (!isAvpError(e)) throw e;
        problems.push(`${e.message} (fix: ${e.fix ?? 'restore it from version control'})`);
      }
      s = { dir: resolve(scopeValidatorsDir(scope, projectRoot, env)), packages };
      scopes.set(scope, s);
    }
    return s;
  };
  const byId = new Map<string, Origin>();
  for (const v of validators) {
    const s = scopeOf(v.source);
    // avp installs a package as the directory `validators/<name>`; anything else there was put by hand.
    const entry = v.dir ? lockedAt(s, resolve(v.dir)) : undefined;
    const declared = declaredVersion(v);
    if (!entry) {
      byId.set(v.id, { source: 'local', ...(declared ? { version: declared } : {}) });
      continue;
    }
    const origin: Origin = { source: entry.source, version: entry.version, resolved: entry.resolved };
    if (entry.registry) origin.registry = entry.registry;
    if (entry.fallbackFrom) origin.fallbackFrom = entry.fallbackFrom;
    byId.set(v.id, origin);
  }
  return { byId, problems };
}

function lockedAt(s: { dir: string; packages: Record<string, LockEntry> }, dir: string): LockEntry | undefined {
  for (const [name, entry] of Object.entries(s.packages)) if (join(s.dir, name) === dir) return entry;
  return undefined;
}

function declaredVersion(v: Validator): string | undefined {
  const m = v.spec.metadata?.version;
  if (typeof m === 'string') return m;
  const top = (v.spec as unknown as Record<string, unknown>).version;
  return typeof top === 'string' ? top : undefined;
}
