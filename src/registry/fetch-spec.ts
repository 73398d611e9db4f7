import { AvpError, isAvpError } from '../errors.ts';
import { catalogPackage } from './catalog-source.ts';
import { clientFor } from './credentials.ts';
import type { ProgressFn } from './http.ts';
import type { Spec } from './resolve.ts';
import { resolveVersion } from './resolve.ts';
import { fetchDir, fetchGit, fetchRegistryVersion, fetchUrl, type Fetched } from './sources.ts';

export interface FetchOptions {
  projectRoot: string;
  registry?: string;
  offline?: boolean;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  progress?: ProgressFn;
}

/** Registry failures after which the embedded catalog may stand in (never integrity or archive failures). */
function registryUnavailable(e: unknown): boolean {
  return (
    isAvpError(e) && (e.code === 'registry-unreachable' || e.code === 'registry-404' || /^registry-5\d\d$/.test(e.code))
  );
}

/**
 * Fetches and checks what a spec names. Registry names fall back to the embedded catalog when offline, when the
 * registry is unreachable or does not know the name, and when the registry has nothing newer than the catalog
 * (no download needed); `owner/repo` falls back to GitHub when the registry says 404.
 */
export async function fetchSpec(spec: Spec, opts: FetchOptions): Promise<Fetched> {
  switch (spec.kind) {
    case 'dir':
      return fetchDir(spec.path);
    case 'git':
      return fetchGit(spec.url, spec.ref);
    case 'url':
      return fetchUrl(spec.url, { progress: opts.progress });
    case 'shorthand': {
      if (opts.offline) return fetchGit(spec.url, spec.ref);
      try {
        const client = await clientFor({
          registry: opts.registry,
          projectRoot: opts.projectRoot,
          env: opts.env,
          cwd: opts.cwd,
        });
        const v = await resolveVersion(client, spec.name, 'latest');
        return await fetchRegistryVersion(client, v, { progress: opts.progress });
      } catch (e) {
        if (isAvpError(e) && (e.code === 'registry-404' || e.code === 'registry-unreachable'))
          return fetchGit(spec.url, spec.ref);
        throw e;
      }
    }
    case 'registry':
      return fetchRegistry(spec, opts);
  }
}

async function fetchRegistry(spec: Extract<Spec, { kind: 'registry' }>, opts: FetchOptions): Promise<Fetched> {
  const { default: semver } = await import('semver');
  const fromCatalog = async (why: string, cause?: unknown): Promise<Fetched> => {
    const pkg = await catalogPackage(spec.name);
    if (pkg && (spec.range === 'latest' || semver.satisfies(pkg.version, spec.range))) return pkg;
    if (cause) throw cause;
    throw new AvpError('not-in-catalog', `${spec.raw} is not in avp's embedded catalog (${why})`, {
      fix: pkg
        ? `the catalog has ${spec.name}@${pkg.version}; ask for that version or go online`
        : 'list the catalog with `avp list --available`, or install from a registry without --offline',
    });
  };
  if (opts.offline) return fromCatalog('offline');
  const client = await clientFor({
    registry: opts.registry,
    projectRoot: opts.projectRoot,
    env: opts.env,
    cwd: opts.cwd,
  });
  let v;
  try {
    v = await resolveVersion(client, spec.name, spec.range);
  } catch (e) {
    if (registryUnavailable(e)) return fromCatalog(`the registry: ${(e as Error).message}`, e);
    throw e;
  }
  const pkg = await catalogPackage(spec.name);
  // Same or older than what the binary carries: install the embedded copy, no download.
  if (
    pkg &&
    semver.valid(v.version) &&
    semver.gte(pkg.version, v.version) &&
    (spec.range === 'latest' || semver.satisfies(pkg.version, spec.range))
  ) {
    return pkg;
  }
  return fetchRegistryVersion(client, v, { progress: opts.progress });
}
