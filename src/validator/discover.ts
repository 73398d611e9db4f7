/**
 * Discovery: the validators of the two AVP sources, project `<root>/.avp/validators/` and user
 * `$AVP_HOME/validators/` (`~/.avp`), with name uniqueness per source and project-over-user precedence.
 *
 * Runs on every hook call. The warm path only walks the folders, stats files and reads the parse cache; the loader
 * (gray-matter, valibot) is imported only when a unit is new or changed.
 */
import { join, resolve } from 'node:path';
import { avpHome, projectValidatorsDir, userValidatorsDir } from '../paths.ts';
import { entryValid, makeEntry, readCache, writeCache, type CacheFile } from './cache.ts';
import { declaringPath, findDuplicates } from './duplicates.ts';
import { liveListing, type Listing } from './listing.ts';
import { filesUnder, walkValidators } from './walk.ts';
import type { Discovery, LintMessage, LoadError, Shadowed, Source, Validator } from './types.ts';

/** What one source (project or user folder) holds after uniqueness checks. */
export interface SourceResult {
  validators: Validator[];
  errors: LoadError[];
  warnings: LintMessage[];
}

/** `discover` input: the project root (from the event or `findProjectRoot`) and the env (`AVP_HOME`). */
export interface DiscoverOptions {
  projectRoot: string;
  env?: NodeJS.ProcessEnv;
  /** Skip the parse cache (read and write): `avp lint`-grade freshness, used by the bench's cold runs. */
  noCache?: boolean;
  /** Where the project's validators are read (default `<root>/.avp/validators`; hook mode may pass accepted copies). */
  projectDir?: string;
  /** Where the user's validators are read (default `$AVP_HOME/validators`). */
  userDir?: string;
  /**
   * How the folders are listed and stat'ed (default: live). Hook mode passes the snapshot the accepted-state check
   * already walked, so a call where nothing changed walks the folders once.
   */
  listing?: Listing;
  /** Told whether a unit was parsed by this call (else everything came from the parse cache). */
  usage?: { parsed: boolean };
}

/**
 * The parse cache of a validators folder: `$AVP_HOME/cache/discovery/<hash of the folder>.json`. Outside the
 * project on purpose: a cache the agent could write would let it replace what a validator says.
 */
export function discoveryCachePath(dir: string, env: NodeJS.ProcessEnv): string {
  const key = Bun.SHA256.hash(dir, 'hex').slice(0, 16);
  return join(avpHome(env), 'cache', 'discovery', `${key}.json`);
}

/** All validators of both sources, load errors as records, shadowed user validators reported. */
export async function discover(opts: DiscoverOptions): Promise<Discovery> {
  const env = opts.env ?? process.env;
  const projectDir = resolve(opts.projectDir ?? projectValidatorsDir(opts.projectRoot));
  const userDir = resolve(opts.userDir ?? userValidatorsDir(env));
  const fs = opts.listing ?? liveListing;
  const { usage } = opts;
  if (usage) usage.parsed = false;
  const project = await loadSource(projectDir, 'project', discoveryCachePath(projectDir, env), opts.noCache, fs, usage);
  // When the project root is the home directory both sources are the same folder: count it once, as the project.
  const user =
    userDir === projectDir
      ? { validators: [], errors: [], warnings: [] }
      : await loadSource(userDir, 'user', discoveryCachePath(userDir, env), opts.noCache, fs, usage);
  return applyPrecedence(project, user);
}

/** Loads one source folder through its parse cache; a missing folder is an empty source. */
export async function loadSource(
  root: string,
  source: Source,
  cachePath: string,
  noCache = false,
  fs: Listing = liveListing,
  usage?: { parsed: boolean },
): Promise<SourceResult> {
  const out: SourceResult = { validators: [], errors: [], warnings: [] };
  if (!fs.stat(root)) return out;
  const units = walkValidators(root, fs);
  const cache: CacheFile = noCache ? { format: 0, version: '', root, entries: {} } : readCache(cachePath, root);
  const next: CacheFile = { ...cache, entries: {} };
  let dirty = false;
  let loader: typeof import('./load.ts') | undefined;
  const now = Date.now();
  for (const unit of units) {
    if (unit.kind === 'stray') {
      out.errors.push({ source, path: unit.path, line: 1, column: 1, message: unit.message, fix: unit.fix });
      continue;
    }
    const key = unit.kind === 'file' ? unit.path : unit.dir;
    const files = unit.kind === 'dir' ? filesUnder(unit.dir, unit.top, true, fs) : undefined;
    const cached = cache.entries[key];
    let result: SourceResult;
    if (cached && entryValid(cached, files, fs)) {
      result = cached.result;
      next.entries[key] = cached;
    } else {
      loader ??= await import('./load.ts');
      const fresh = loader.loadUnit(unit, source);
      result = fresh;
      const entry = makeEntry(fresh, files, now);
      if (entry) next.entries[key] = entry;
      dirty = true;
    }
    out.validators.push(...result.validators);
    out.errors.push(...result.errors);
    out.warnings.push(...result.warnings);
  }
  if (!dirty && Object.keys(cache.entries).length !== Object.keys(next.entries).length) dirty = true;
  if (dirty && !noCache) writeCache(cachePath, next);
  const unique = findDuplicates(out.validators, out.errors, source);
  if (usage && dirty) usage.parsed = true;
  return { validators: unique.validators, errors: unique.errors, warnings: out.warnings };
}

/**
 * Project > user: a user validator (or user load error) whose name the project also has — as a validator or as a
 * load error that still carries its name — is set aside and reported in `shadowed`.
 */
export function applyPrecedence(project: SourceResult, user: SourceResult): Discovery {
  const winners = new Map<string, string>();
  for (const v of project.validators) if (!winners.has(v.name)) winners.set(v.name, declaringPath(v));
  for (const e of project.errors) if (e.name && !winners.has(e.name)) winners.set(e.name, declaringPath(e));
  const shadowed: Shadowed[] = [];
  const seen = new Set<string>();
  const shadow = (name: string, path: string) => {
    const key = `${name}\0${path}`;
    if (seen.has(key)) return;
    seen.add(key);
    shadowed.push({ name, winner: winners.get(name)!, shadowed: path });
  };
  const validators = [...project.validators];
  for (const v of user.validators) {
    if (winners.has(v.name)) shadow(v.name, declaringPath(v));
    else validators.push(v);
  }
  const errors = [...project.errors];
  for (const e of user.errors) {
    if (e.name && winners.has(e.name)) shadow(e.name, declaringPath(e));
    else errors.push(e);
  }
  return { validators, errors, warnings: [...project.warnings, ...user.warnings], shadowed };
}
