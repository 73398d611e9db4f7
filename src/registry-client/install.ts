import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AvpError } from '../errors.ts';
import { projectValidatorsDir } from '../paths.ts';
import { withFileLock } from '../os/file-lock.ts';
import type { ProgressFn } from './http.ts';
import {
  lockfilePath,
  readLockfile,
  scopeHome,
  scopeValidatorsDir,
  writeLockfile,
  type LockEntry,
  type Scope,
} from './lockfile.ts';
import { fetchSpec } from './fetch-spec.ts';
import { isPackageName } from './manifest.ts';
import { parseSpec } from './resolve.ts';
import { lockEntryOf, type Fetched } from './sources.ts';
import { editedError, editedSinceInstall, markInstalled, otherScopeHint } from './local-edits.ts';
import { commitStaged, discard, recoverInterrupted, removeInstalled, stagePackage } from './stage.ts';

export interface AddOptions {
  scope: Scope;
  projectRoot: string;
  registry?: string;
  /** Embedded catalog only (used by `avp init`): no network at all. */
  offline?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Where relative paths in the spec are resolved (default: projectRoot). */
  cwd?: string;
  /** Replace a same-named validator avp did not install, or one edited since avp installed it. */
  force?: boolean;
  progress?: ProgressFn;
  /** Record this lock entry as it is (install from the lockfile) instead of a fresh one. */
  keepEntry?: LockEntry;
  /** Do not write the lockfile at all (`avp install --frozen`). */
  frozen?: boolean;
}

export interface AddResult {
  name: string;
  version: string;
  source: string;
  dir: string;
  /** The project validator that wins over this user install (precedence project > user). */
  shadowedBy?: string;
  resolved: string;
  integrity: string;
  /** The version this install replaced, if any. */
  replaced?: string;
  /** avp's embedded catalog stood in for a registry name: the registry asked and why it could not serve it. */
  fallback?: { registry: string; reason: string };
}

/** The lock serializing changes to one scope's validators directory and lockfile. */
function scopeLock(scope: Scope, projectRoot: string, env: NodeJS.ProcessEnv): string {
  const home = scopeHome(scope, projectRoot, env);
  mkdirSync(home, { recursive: true });
  return join(home, '.install.lock');
}

/**
 * `avp add`: resolve, download, verify, inspect, lint in a staging dir, then install atomically and record it in the
 * scope's lockfile. On any failure nothing changes: the previous version (if any) and the lockfile stay as they were.
 */
export async function addValidator(spec: string, opts: AddOptions, prepared?: PreparedAdd): Promise<AddResult> {
  const env = opts.env ?? process.env;
  const { fetched, requested } = prepared ?? (await prepareAdd(spec, opts));
  return installFetched(fetched, { ...opts, env }, requested);
}

/** A spec fetched and checked, ready to install: `avp add` fetches once and both checks and installs what it got. */
export interface PreparedAdd {
  fetched: Fetched;
  /** The range or ref to record in the lockfile. */
  requested?: string;
}

/** Resolves and downloads what `spec` names (the registry's download count rises by one), without installing it. */
export async function prepareAdd(spec: string, opts: AddOptions): Promise<PreparedAdd> {
  const env = opts.env ?? process.env;
  // Offline means the catalog: a bare name is never taken for a same-named folder in the cwd.
  const parsed =
    opts.offline && isPackageName(spec)
      ? ({ kind: 'registry', name: spec, range: 'latest', raw: spec } as const)
      : await parseSpec(spec, opts.cwd ?? opts.projectRoot);
  const fetched = await fetchSpec(parsed, { ...opts, env });
  const requested =
    parsed.kind === 'registry' || parsed.kind === 'catalog'
      ? parsed.range
      : parsed.kind === 'git' || parsed.kind === 'shorthand'
        ? parsed.ref
        : undefined;
  return { fetched, requested };
}

/** Stages, lints and commits a fetched package (shared by add, update and install). */
export async function installFetched(
  f: Fetched,
  opts: AddOptions & { env: NodeJS.ProcessEnv },
  requested?: string,
): Promise<AddResult> {
  return withIoErrors(scopeHome(opts.scope, opts.projectRoot, opts.env), () =>
    installFetchedUnwrapped(f, opts, requested),
  );
}

/** File system failures (permissions, a full disk) become AvpErrors that say where; the previous state is intact. */
async function withIoErrors<T>(home: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AvpError || !(e as NodeJS.ErrnoException).code) throw e;
    throw new AvpError('install-io', `could not write under ${home}: ${(e as Error).message}`, {
      fix: `check the permissions of ${home} and the free disk space; nothing was changed`,
      cause: e,
    });
  }
}

async function installFetchedUnwrapped(
  f: Fetched,
  opts: AddOptions & { env: NodeJS.ProcessEnv },
  requested?: string,
): Promise<AddResult> {
  const { scope, projectRoot, env } = opts;
  const home = scopeHome(scope, projectRoot, env);
  const validatorsDir = scopeValidatorsDir(scope, projectRoot, env);
  const staged = await stagePackage(home, f.name, f.info);
  try {
    await lintStaged(staged.dir, f.name);
    markInstalled(staged.dir);
  } catch (e) {
    discard(staged);
    throw e;
  }
  const target = join(validatorsDir, f.name);
  let replaced: string | undefined;
  const fresh = lockEntryOf(f, requested);
  const entry: LockEntry = opts.keepEntry
    ? { ...opts.keepEntry, treeIntegrity: opts.keepEntry.treeIntegrity ?? fresh.treeIntegrity }
    : fresh;
  const lockPath = lockfilePath(scope, projectRoot, env);
  try {
    await withFileLock(scopeLock(scope, projectRoot, env), () => {
      recoverInterrupted(home, validatorsDir, (n) => readLockfile(lockPath).packages[n]?.treeIntegrity);
      // Read inside the lock: another avp may have changed the lockfile while this one downloaded.
      const lf = readLockfile(lockPath);
      const known = lf.packages[f.name];
      const single = join(validatorsDir, `${f.name}.md`);
      if (existsSync(single)) {
        throw new AvpError('install-conflict', `${single} already defines a validator named ${f.name}`, {
          fix: `rename or remove ${single} first (two validators of one name in a folder is a load error)`,
        });
      }
      if (existsSync(target) && !known && !opts.force) throw conflict(target, f.name);
      if (known && !opts.force && editedSinceInstall(target, known)) {
        // Same package as installed: the staged copy is pristine, so the edited files can be named.
        const pristine = known.treeIntegrity && known.treeIntegrity === entry.treeIntegrity ? staged.dir : undefined;
        throw editedError(f.name, target, 'replace', pristine);
      }
      if (f.fallback && known && known.source !== 'catalog') throw fallbackRefused(f, known);
      replaced = known?.version;
      const commit = commitStaged(staged, validatorsDir, entry.treeIntegrity!);
      try {
        const unchanged = JSON.stringify(lf.packages[f.name]) === JSON.stringify(entry);
        lf.packages[f.name] = entry;
        if (!opts.frozen && !unchanged) writeLockfile(lockPath, lf);
      } catch (e) {
        commit.rollback();
        throw e;
      }
      commit.finish();
    });
  } finally {
    discard(staged);
  }
  const result: AddResult = {
    name: f.name,
    version: f.version,
    source: f.source,
    dir: target,
    resolved: f.resolved,
    integrity: f.integrity,
  };
  if (replaced) result.replaced = replaced;
  if (f.fallback) result.fallback = f.fallback;
  if (scope === 'user') {
    const winner = await projectWinner(projectRoot, f.name);
    if (winner) result.shadowedBy = winner;
  }
  return result;
}

/**
 * The project validator named `name`, wherever it sits under `.avp/validators/` (a nested `team/x.md` counts: names
 * are what precedence compares). Loaded with the format's own loader, without touching the project's caches.
 */
async function projectWinner(projectRoot: string, name: string): Promise<string | undefined> {
  const dir = projectValidatorsDir(projectRoot);
  if (!existsSync(dir)) return undefined;
  const { loadValidatorsAt } = await import('../validator/load.ts');
  const { validators, errors } = await loadValidatorsAt(dir, 'project');
  const v = validators.find((x) => x.name === name);
  return v ? (v.dir ?? v.path) : errors.find((e) => e.name === name)?.path;
}

/**
 * The catalog stood in for an unreachable registry, but the scope already has this name from a recorded source
 * with a known integrity: a different package, never replaced by a stand-in.
 */
function fallbackRefused(f: Fetched, known: LockEntry): AvpError {
  return new AvpError(
    'fallback-refused',
    `${f.fallback!.reason}; ${f.name}@${known.version} is installed from ${known.source} (${known.resolved}, ` +
      `${known.integrity.slice(0, 20)}…) and avp's embedded catalog copy would replace it with another package`,
    {
      fix: `nothing was changed; retry when the registry answers, or take the catalog copy on purpose: avp add catalog:${f.name}`,
    },
  );
}

function conflict(path: string, name: string): AvpError {
  return new AvpError('install-conflict', `${path} already exists and was not installed by avp`, {
    fix: `rename or remove it, or pass --force to replace it with the package "${name}"`,
  });
}

/** Lints the staged directory with the same rules as `avp lint`; errors refuse the install (warnings do not). */
async function lintStaged(dir: string, name: string): Promise<void> {
  const { lintPaths, formatLint } = await import('../validator/lint.ts');
  const errors = (await lintPaths([dir])).filter((m) => m.level === 'error');
  if (errors.length === 0) return;
  const lines = errors.slice(0, 5).map((m) => `  ${formatLint({ ...m, path: m.path.replace(dir, name) })}`);
  throw new AvpError(
    'package-lint-failed',
    `${name} does not pass avp's validator checks:\n${lines.join('\n')}${errors.length > 5 ? `\n  … and ${errors.length - 5} more` : ''}`,
    {
      fix: 'nothing was installed; ask the publisher to fix it (`avp lint` on the package shows the same errors)',
    },
  );
}

/**
 * `avp remove`: deletes the validator directory and its lockfile entry, under the scope lock. Only what avp
 * installed, unedited: a hand-written validator (no lock entry) or one edited since its install is refused without
 * `force`. Not found here but in the other scope: the error says so, with the flag.
 */
export async function removeValidator(
  name: string,
  opts: { scope: Scope; projectRoot: string; env?: NodeJS.ProcessEnv; force?: boolean },
): Promise<{ removed: boolean; version?: string; dir: string }> {
  const env = opts.env ?? process.env;
  const home = scopeHome(opts.scope, opts.projectRoot, env);
  const validatorsDir = scopeValidatorsDir(opts.scope, opts.projectRoot, env);
  const lockPath = lockfilePath(opts.scope, opts.projectRoot, env);
  const dir = join(validatorsDir, name);
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) {
    throw new AvpError('spec-invalid', `"${name}" is not a validator name`, {
      fix: 'pass the name shown by `avp list`',
    });
  }
  return withIoErrors(home, () =>
    withFileLock(scopeLock(opts.scope, opts.projectRoot, env), () => {
      recoverInterrupted(home, validatorsDir, (n) => readLockfile(lockPath).packages[n]?.treeIntegrity);
      const lf = readLockfile(lockPath);
      const entry = lf.packages[name];
      const single = join(validatorsDir, `${name}.md`);
      if (!entry && !existsSync(dir)) {
        const elsewhere = otherScopeHint(name, opts.scope, opts.projectRoot, env, 'remove');
        const handWritten = existsSync(single) ? handWrittenError(single, opts.scope) : undefined;
        if (handWritten && !elsewhere) throw handWritten;
        throw new AvpError(
          elsewhere ? 'installed-in-other-scope' : 'not-installed',
          `${name} is not installed in the ${opts.scope} scope (avp looked in ${validatorsDir})`,
          { fix: elsewhere || 'check `avp list` (its SCOPE column says where each validator is)' },
        );
      }
      if (!entry && !opts.force) throw handWrittenError(dir, opts.scope);
      if (entry && !opts.force && editedSinceInstall(dir, entry)) throw editedError(name, dir, 'remove');
      removeInstalled(home, validatorsDir, name);
      if (entry) {
        delete lf.packages[name];
        writeLockfile(lockPath, lf);
      }
      return { removed: true, version: entry?.version, dir };
    }),
  );
}

/** A validator avp has no record of installing: the user's own work, never deleted by `avp remove` on its own. */
function handWrittenError(path: string, scope: Scope): AvpError {
  return new AvpError(
    'not-installed-by-avp',
    `${path} was not installed by avp (no ${scope} lockfile entry); avp did not delete it`,
    {
      fix: `delete it yourself if you mean to (rm -r ${path}), or run \`avp remove\` again with --force`,
    },
  );
}
