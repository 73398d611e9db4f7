import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AvpError } from '../errors.ts';
import { treeIntegrity } from './archive.ts';
import { catalogPackage } from './catalog-source.ts';
import { clientFor } from './credentials.ts';
import type { ProgressFn } from './http.ts';
import { installFetched } from './install.ts';
import { editedError, editedSinceInstall, installedTreeIntegrity } from './local-edits.ts';
import { lockfilePath, readLockfile, scopeValidatorsDir, type LockEntry, type Scope } from './lockfile.ts';
import { fetchDir, fetchGit, fetchRegistryVersion, fetchUrl, integrityMismatch, type Fetched } from './sources.ts';
import { gitSync } from '../os/git.ts';

/** Fetches exactly what a lock entry recorded, refusing anything that does not hash to the recorded integrity. */
async function fetchLocked(
  name: string,
  e: LockEntry,
  env: NodeJS.ProcessEnv,
  progress?: ProgressFn,
): Promise<Fetched> {
  let f: Fetched;
  switch (e.source) {
    case 'registry': {
      const client = await clientFor({ registry: e.registry ?? new URL(e.resolved).origin, env });
      f = await fetchRegistryVersion(
        client,
        { name, version: e.version, downloadUrl: e.resolved, integrity: e.integrity },
        { progress },
      );
      break;
    }
    case 'url':
      f = await fetchUrl(e.resolved, { expected: e.integrity, progress });
      break;
    case 'catalog': {
      const pkg = await catalogPackage(name);
      if (!pkg || pkg.version !== e.version) {
        throw new AvpError(
          'locked-catalog-missing',
          `the lockfile pins ${name}@${e.version} from avp's catalog, but this avp carries ${pkg ? pkg.version : 'no such validator'}`,
          {
            fix: `run \`avp update ${name}\` to move the lockfile to what this avp has, or use the avp version that wrote the lockfile`,
          },
        );
      }
      f = pkg;
      break;
    }
    case 'file':
      f = await fetchDir(e.resolved.replace(/^file:/, ''));
      break;
    case 'git': {
      const m = /^git\+(.+)#([0-9a-f]{40})$/.exec(e.resolved);
      if (!m)
        throw new AvpError('lockfile-invalid', `lock entry ${name} has resolved "${e.resolved}" without a commit`, {
          fix: `re-add it: avp add ${name}`,
        });
      f = await fetchGit(m[1]!, m[2]!);
      break;
    }
    default:
      throw new AvpError('lockfile-invalid', `lock entry ${name} has unknown source "${String(e.source)}"`, {
        fix: 'upgrade avp or re-add the validator',
      });
  }
  if (f.integrity !== e.integrity) throw integrityMismatch(`${name} (${e.resolved})`, e.integrity, f.integrity);
  return f;
}

interface PlanItem {
  name: string;
  entry: LockEntry;
  current: string | undefined;
  matches: boolean;
}

/** Is anything under `.avp/validators/` committed? Then the folder, not the lockfile alone, is the team's truth. */
function validatorsCommitted(projectRoot: string, dir: string): boolean {
  const p = gitSync(['ls-files', '-z', '--', dir], { cwd: projectRoot });
  return p?.code === 0 && p.stdout.length > 0;
}

/**
 * `install --frozen`'s drift check: the lockfile and `validators/` must describe the same validators, or CI would
 * run something else than what the team's agents run. Every disagreement is listed at once, and nothing is written:
 * - an installed validator whose files differ from its lock entry (edited by hand, or updated without the lockfile);
 * - a locked validator missing from a committed validators folder (deleted without `avp remove`);
 * - a locked name also defined by a single-file `name.md` (two validators of one name);
 * - an entry written before avp recorded tree hashes: checked against what its recorded source serves.
 * A locked validator missing from a folder that is not committed is installed (teams that keep installed validators
 * out of git restore them this way); a folder without a lock entry is a hand-written validator and is left alone.
 */
async function refuseDrift(
  plan: PlanItem[],
  opts: {
    scope: Scope;
    projectRoot: string;
    env: NodeJS.ProcessEnv;
    lockPath: string;
    dir: string;
    progress?: ProgressFn;
  },
): Promise<void> {
  const drift: string[] = [];
  const committed = opts.scope === 'project' && validatorsCommitted(opts.projectRoot, opts.dir);
  for (const p of plan) {
    const rel = `validators/${p.name}`;
    if (existsSync(join(opts.dir, `${p.name}.md`))) drift.push(`validators/${p.name}.md also defines ${p.name}`);
    if (p.current === undefined) {
      if (committed) drift.push(`${rel} is missing (the lockfile pins ${p.name}@${p.entry.version})`);
      continue;
    }
    if (p.matches) continue;
    if (!p.entry.treeIntegrity) {
      // No tree hash recorded: compare with the locked package itself (fetched and integrity-checked).
      const fetched = await fetchLocked(p.name, p.entry, opts.env, opts.progress);
      if (treeIntegrity(fetched.info.files) === p.current) {
        p.matches = true;
        continue;
      }
    }
    drift.push(`${rel} differs from ${p.name}@${p.entry.version} in the lockfile`);
  }
  if (!drift.length) return;
  throw new AvpError(
    'frozen-mismatch',
    `installed validators differ from ${opts.lockPath}:\n  - ${drift.join('\n  - ')}`,
    {
      fix:
        'run `avp install` (without --frozen) to put back the locked versions, or record what is installed ' +
        '(`avp add`, `avp remove`) and commit the lockfile with the validators folder',
    },
  );
}

export interface RestoreResult {
  name: string;
  version: string;
  action: 'installed' | 'replaced' | 'unchanged';
}

/**
 * `avp install`: makes a scope's validators directory match its lockfile exactly (for teammates and CI). Each
 * entry is fetched from what the lockfile resolved and must hash to its integrity. `frozen` never writes the
 * lockfile and fails when an installed validator differs from its entry instead of replacing it. A validator edited
 * since avp installed it is never replaced without `force` (nothing is installed then).
 */
export async function restoreFromLockfile(opts: {
  scope: Scope;
  projectRoot: string;
  frozen?: boolean;
  /** Replace validators edited since avp installed them (the edits are lost). */
  force?: boolean;
  env?: NodeJS.ProcessEnv;
  progress?: ProgressFn;
}): Promise<RestoreResult[]> {
  const env = opts.env ?? process.env;
  const path = lockfilePath(opts.scope, opts.projectRoot, env);
  if (!existsSync(path)) {
    throw new AvpError('lockfile-missing', `no lockfile at ${path}`, {
      fix:
        opts.scope === 'project'
          ? 'add validators with `avp add --project <name>` (it writes .avp/avp-lock.json), and commit it'
          : 'add validators with `avp add <name>`',
    });
  }
  const lf = readLockfile(path);
  const dir = scopeValidatorsDir(opts.scope, opts.projectRoot, env);
  const plan = Object.entries(lf.packages).map(([name, entry]) => {
    const current = installedTreeIntegrity(join(dir, name));
    return { name, entry, current, matches: current !== undefined && current === entry.treeIntegrity };
  });
  if (opts.frozen) await refuseDrift(plan, { ...opts, env, lockPath: path, dir });
  const edited = opts.force ? [] : plan.filter((p) => !p.matches && editedSinceInstall(join(dir, p.name), p.entry));
  if (edited.length === 1) throw editedError(edited[0]!.name, join(dir, edited[0]!.name), 'replace');
  if (edited.length > 1) {
    throw new AvpError(
      'local-edits',
      `${edited.map((p) => p.name).join(', ')} in ${dir} were edited after avp installed them; avp installed nothing`,
      { fix: 'copy your edits elsewhere first; to replace them anyway and lose the edits, run `avp install --force`' },
    );
  }
  const results: RestoreResult[] = [];
  for (const p of plan) {
    if (p.matches) {
      results.push({ name: p.name, version: p.entry.version, action: 'unchanged' });
      continue;
    }
    const fetched = await fetchLocked(p.name, p.entry, env, opts.progress);
    await installFetched(fetched, {
      scope: opts.scope,
      projectRoot: opts.projectRoot,
      env,
      force: opts.force,
      keepEntry: p.entry,
      frozen: opts.frozen,
    });
    results.push({
      name: p.name,
      version: p.entry.version,
      action: p.current === undefined ? 'installed' : 'replaced',
    });
  }
  return results;
}
