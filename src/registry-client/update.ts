import { AvpError, isAvpError } from '../errors.ts';
import { catalogPackage } from './catalog-source.ts';
import { clientFor } from './credentials.ts';
import { fetchSpec } from './fetch-spec.ts';
import type { ProgressFn } from './http.ts';
import { installFetched } from './install.ts';
import { join } from 'node:path';
import { lockfilePath, readLockfile, scopeValidatorsDir, type LockEntry, type Scope } from './lockfile.ts';
import { editedSinceInstall, otherScopeHint } from './local-edits.ts';
import { parseSpec, resolveVersion } from './resolve.ts';

export interface UpdateResult {
  name: string;
  scope: Scope;
  from: string;
  to: string;
  status: 'updated' | 'current' | 'skipped';
  reason?: string;
}

/**
 * The spec that re-resolves a lock entry from its recorded source: registry names within the recorded range (a
 * catalog copy that stood in for an unreachable registry asks that registry again), catalog entries asked for on
 * purpose from this avp's catalog, git at its ref, local directories re-read.
 */
function respec(name: string, e: LockEntry, latest: boolean): string | undefined {
  const range = latest || !e.requested || e.requested === 'latest' ? '' : `@${e.requested}`;
  if (e.source === 'registry' || (e.source === 'catalog' && e.fallbackFrom)) return `${name}${range}`;
  if (e.source === 'catalog') return `catalog:${name}${range}`;
  if (e.source === 'git') return `${e.resolved.replace(/#[0-9a-f]{40}$/, '')}${e.requested ? `#${e.requested}` : ''}`;
  if (e.source === 'file') return e.resolved.replace(/^file:/, '');
  return undefined; // an archive URL names one fixed archive: nothing to update to
}

/**
 * `avp update [name]`: re-resolves installed packages within the range recorded at `avp add` time (`latest` when
 * none was given; `latest: true` ignores the range and records `latest`), and installs what changed.
 */
export async function updateValidators(opts: {
  names?: string[];
  scope: Scope;
  projectRoot: string;
  registry?: string;
  latest?: boolean;
  /** Replace validators edited since avp installed them (the edits are lost). */
  force?: boolean;
  env?: NodeJS.ProcessEnv;
  progress?: ProgressFn;
}): Promise<UpdateResult[]> {
  const env = opts.env ?? process.env;
  const { default: semver } = await import('./semver.ts');
  const lockPath = lockfilePath(opts.scope, opts.projectRoot, env);
  const lf = readLockfile(lockPath);
  const names = opts.names?.length ? opts.names : Object.keys(lf.packages);
  for (const name of names) {
    if (lf.packages[name]) continue;
    const elsewhere = otherScopeHint(name, opts.scope, opts.projectRoot, env, 'update');
    throw new AvpError(
      elsewhere ? 'installed-in-other-scope' : 'not-installed',
      `${name} is not in the ${opts.scope} lockfile (avp looked in ${lockPath})`,
      { fix: elsewhere || `install it with \`avp add ${name}${opts.scope === 'project' ? ' --project' : ''}\`` },
    );
  }
  // Checked before anything is fetched: an update never replaces the user's edits, and refuses as a whole.
  const dir = scopeValidatorsDir(opts.scope, opts.projectRoot, env);
  const edited = opts.force ? [] : names.filter((n) => editedSinceInstall(join(dir, n), lf.packages[n]));
  if (edited.length) {
    throw new AvpError(
      'local-edits',
      `${edited.join(', ')} in ${dir} ${edited.length === 1 ? 'was' : 'were'} edited after avp installed ${edited.length === 1 ? 'it' : 'them'}; avp updated nothing`,
      {
        fix: `copy your edits elsewhere first, or update the others by name; to replace ${edited.length === 1 ? 'it' : 'them'} anyway and lose the edits, run \`avp update\` again with --force`,
      },
    );
  }
  const results: UpdateResult[] = [];
  for (const name of names) {
    const e = lf.packages[name]!;
    // Left at its version: `current`, or `skipped` with the reason.
    const kept = (status: 'current' | 'skipped', reason?: string): UpdateResult => ({
      name,
      scope: opts.scope,
      from: e.version,
      to: e.version,
      status,
      ...(reason ? { reason } : {}),
    });
    const spec = respec(name, e, Boolean(opts.latest));
    if (!spec) {
      results.push(kept('skipped', `${e.source} sources are fixed`));
      continue;
    }
    const parsed = await parseSpec(spec, opts.projectRoot);
    const fetched = await fetchSpec(parsed, {
      projectRoot: opts.projectRoot,
      registry: opts.registry ?? e.registry ?? e.fallbackFrom,
      recorded: !opts.registry,
      env,
      progress: opts.progress,
    });
    // A stand-in never replaces a package recorded from elsewhere (installFetched would refuse it too).
    if (fetched.fallback && e.source !== 'catalog') {
      results.push(kept('skipped', fetched.fallback.reason));
      continue;
    }
    if (fetched.integrity === e.integrity && fetched.version === e.version && !e.fallbackFrom === !fetched.fallback) {
      results.push(kept('current'));
      continue;
    }
    // Never a downgrade: the installed version may be newer than what resolves now (it was yanked since). A catalog
    // stand-in is not a version of the registry's package: the registry's package replaces it whatever its version.
    const replacesStandIn = Boolean(e.fallbackFrom) && !fetched.fallback;
    if (
      !replacesStandIn &&
      semver.valid(fetched.version) &&
      semver.valid(e.version) &&
      semver.lt(fetched.version, e.version)
    ) {
      results.push(
        kept('skipped', `the newest available is ${fetched.version}, older than the installed one (yanked?)`),
      );
      continue;
    }
    const requested = opts.latest ? 'latest' : e.requested;
    await installFetched(
      fetched,
      { scope: opts.scope, projectRoot: opts.projectRoot, env, force: opts.force },
      requested,
    );
    results.push({ name, scope: opts.scope, from: e.version, to: fetched.version, status: 'updated' });
  }
  return results;
}

export interface OutdatedRow {
  name: string;
  scope: Scope;
  current: string;
  /** Highest version within the recorded range. */
  wanted: string;
  latest: string;
  source: string;
}

/**
 * `avp outdated`: for registry and catalog installs of the given scopes, the newest version within the recorded
 * range and the registry's latest. Asks `/latest` (and `/versions` for ranges) per package; names the registry
 * does not know are left out.
 */
export async function outdated(opts: {
  scopes: Scope[];
  projectRoot: string;
  registry?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<OutdatedRow[]> {
  const env = opts.env ?? process.env;
  const { default: semver } = await import('./semver.ts');
  const rows: OutdatedRow[] = [];
  for (const scope of opts.scopes) {
    const lf = readLockfile(lockfilePath(scope, opts.projectRoot, env));
    for (const [name, e] of Object.entries(lf.packages)) {
      if (e.source !== 'registry' && e.source !== 'catalog') continue;
      if (e.source === 'catalog' && !e.fallbackFrom) {
        // Asked for on purpose: what is newer is this avp's catalog copy, not a registry package of that name.
        const pkg = await catalogPackage(name);
        if (pkg && semver.valid(e.version) && semver.gt(pkg.version, e.version))
          rows.push({ name, scope, current: e.version, wanted: pkg.version, latest: pkg.version, source: e.source });
        continue;
      }
      const client = await clientFor({
        registry: opts.registry ?? e.registry ?? e.fallbackFrom,
        projectRoot: opts.projectRoot,
        env,
      });
      let latest: string;
      let wanted: string;
      try {
        latest = (await client.latest(name)).version;
        wanted =
          !e.requested || e.requested === 'latest' ? latest : (await resolveVersion(client, name, e.requested)).version;
      } catch (err) {
        if (isAvpError(err) && (err.code === 'registry-404' || err.code === 'version-not-found')) continue;
        throw err;
      }
      if (
        semver.valid(latest) &&
        semver.valid(e.version) &&
        (semver.gt(latest, e.version) || semver.gt(wanted, e.version))
      ) {
        rows.push({ name, scope, current: e.version, wanted, latest, source: e.source });
      }
    }
  }
  return rows;
}
