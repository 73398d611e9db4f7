import { AvpError, isAvpError } from '../errors.ts';
import { catalogPackage } from './catalog-source.ts';
import type { RegistryClient } from './api.ts';
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
  /** `registry` is the one a lock entry recorded (update), not one the user named: the catalog fallback stays. */
  recorded?: boolean;
}

/**
 * Fetches and checks what a spec names. A registry name is the registry's package: avp's embedded catalog stands in
 * only when the registry cannot serve the name at all (unreachable, 5xx, or it has no package of that name), and the
 * result says so (`fallback`). `catalog:NAME` and `--offline` ask for the embedded copy on purpose. `owner/repo`
 * falls back to GitHub when the registry says 404.
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
    case 'catalog':
      return fetchCatalog(spec);
    case 'registry':
      return opts.offline ? fetchCatalog(spec) : fetchRegistry(spec, opts);
  }
}

/** avp's embedded copy, asked for on purpose: a missing name or a version outside the range is an error. */
async function fetchCatalog(spec: { name: string; range: string; raw: string }): Promise<Fetched> {
  const pkg = await catalogPackage(spec.name);
  if (pkg && (spec.range === 'latest' || (await satisfies(pkg.version, spec.range)))) return pkg;
  throw new AvpError(
    'not-in-catalog',
    pkg
      ? `${spec.raw} is not in avp's embedded catalog: it has ${spec.name}@${pkg.version}`
      : `${spec.raw} is not in avp's embedded catalog`,
    {
      fix: pkg
        ? `ask for catalog:${spec.name}@${pkg.version}, or install the registry's package: avp add ${spec.name}@${spec.range}`
        : 'list the catalog with `avp list --available`, or install from a registry without --offline',
    },
  );
}

async function satisfies(version: string, range: string): Promise<boolean> {
  const { default: semver } = await import('./semver.ts');
  return semver.satisfies(version, range);
}

/** The registry's package; the catalog only when the registry cannot serve this name at all (and it says so). */
async function fetchRegistry(spec: Extract<Spec, { kind: 'registry' }>, opts: FetchOptions): Promise<Fetched> {
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
    const named = namedBy(opts, client.base);
    if (named && isAvpError(e) && cannotAnswer(e)) throw namedRegistryDown(e, named, spec);
    const why = await whyUnavailable(client, spec, e);
    const pkg = why ? await catalogPackage(spec.name) : undefined;
    if (!why || !pkg || (spec.range !== 'latest' && !(await satisfies(pkg.version, spec.range)))) throw e;
    return { ...pkg, fallback: { registry: client.base, reason: why } };
  }
  return fetchRegistryVersion(client, v, { progress: opts.progress });
}

/** A registry that did not answer: unreachable, silent or past its deadline, or failing with 5xx. */
function cannotAnswer(e: AvpError): boolean {
  return e.code === 'registry-unreachable' || e.code === 'registry-timeout' || /^registry-5\d\d$/.test(e.code);
}

/**
 * How the user named the registry, when they did (`--registry`, AVP_REGISTRY_URL, MIRDAN_REGISTRY_URL): a registry
 * named on purpose that cannot answer is an error, never quietly replaced by the catalog. The configured or public
 * default registry keeps the fallback.
 */
function namedBy(opts: FetchOptions, base: string): string | undefined {
  if (opts.recorded) return undefined;
  if (opts.registry) return '--registry';
  if (opts.env.AVP_REGISTRY_URL) return 'AVP_REGISTRY_URL';
  const mirdan = opts.env.MIRDAN_REGISTRY_URL?.replace(/\/+$/, '');
  return mirdan && mirdan === base ? 'MIRDAN_REGISTRY_URL' : undefined;
}

function namedRegistryDown(e: AvpError, named: string, spec: { name: string }): AvpError {
  return new AvpError(e.code, `${e.message} (the registry ${named} names); nothing was installed`, {
    fix:
      `check that registry's URL and that it runs, or name one that answers (--registry URL or AVP_REGISTRY_URL); ` +
      `for avp's embedded copy on purpose: avp add catalog:${spec.name}`,
    cause: e,
  });
}

/**
 * Why the registry cannot serve this name at all (said to the user), or undefined when it can (then nothing may
 * stand in for it). A 404 for one version of a package the registry has is not a missing package: it becomes a
 * version-not-found error, so the catalog never replaces a registry package that merely lacks the version asked for.
 */
async function whyUnavailable(
  client: RegistryClient,
  spec: { name: string; range: string },
  e: unknown,
): Promise<string | undefined> {
  if (!isAvpError(e)) return undefined;
  const unreachable = (x: AvpError) => x.code === 'registry-unreachable' || /^registry-5\d\d$/.test(x.code);
  if (unreachable(e)) return e.message;
  if (e.code !== 'registry-404') return undefined;
  const { default: semver } = await import('./semver.ts');
  // Only an exact version is resolved with GET …/{version}, whose 404 may mean "no such version".
  if (spec.range === 'latest' || !semver.valid(spec.range)) return `${client.base} has no package named ${spec.name}`;
  let latest: string;
  try {
    latest = (await client.latest(spec.name)).version;
  } catch (e2) {
    if (isAvpError(e2) && e2.code === 'registry-404') return `${client.base} has no package named ${spec.name}`;
    if (isAvpError(e2) && unreachable(e2)) return e2.message;
    throw e2;
  }
  throw new AvpError('version-not-found', `${client.base} has ${spec.name}, but not version ${spec.range}`, {
    fix: `install a version it has (latest: ${spec.name}@${latest}; \`avp info ${spec.name}\` lists them), or avp's embedded copy on purpose: avp add catalog:${spec.name}`,
  });
}
