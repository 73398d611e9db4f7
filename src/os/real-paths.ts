/**
 * What a path really names on disk: symlinks followed (also dangling ones, which a Write follows to create their
 * target), a file that does not exist yet resolved through its nearest existing ancestor, and whether the file
 * system holding it ignores case (so `.CLAUDE/settings.json` is `.claude/settings.json`). Strings alone cannot say
 * this: `ln -s .claude cc` makes `cc/settings.json` the agent's own settings file.
 *
 * Cost: a hook event names one or two paths; resolving one is an existence test and one `realpath` when it exists,
 * plus one stat pair per folder for the case probe, each cached per resolver (one resolver per hook call). Paths are
 * bounded first (`checkPathBounds`), so a hostile input cannot make the walk long.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';

export { checkPathBounds, MAX_PATH_BYTES, MAX_PATH_DEPTH } from './path-bounds.ts';

/** As the kernel's ELOOP limit: a chain of more symlinks than this is a loop or an attack. */
const MAX_LINK_HOPS = 40;

/** The disk operations resolution needs; injectable so the case logic is testable where no such file system exists. */
export interface FsProbe {
  /** The real path of an existing path; undefined (or a throw) when it does not exist. */
  realpath(path: string): string | undefined;
  /** The link text when `path` is a symlink (dangling or not), else undefined. */
  readlink(path: string): string | undefined;
  /** Device and inode of an existing path (following symlinks), else undefined. */
  identity(path: string): string | undefined;
  /** Whether a path exists (following symlinks): `identity` without building its stats, when the probe has it. */
  exists?(path: string): boolean;
}

/**
 * The disk itself. A missing path is asked about without an exception where node:fs allows it: most paths the guard
 * resolves do not exist (every agent's settings files, `avp` in each PATH folder), and a thrown error costs far more
 * than the system call (measured: the guard of a Write, ~50 paths resolved, ~2.0 → ~1.2 ms of CPU).
 */
export const nodeProbe: FsProbe = {
  realpath: (p) => (existsSync(p) ? realpathSync.native(p) : undefined),
  exists: (p) => existsSync(p),
  readlink(p) {
    try {
      return lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(p) : undefined;
    } catch {
      return undefined;
    }
  },
  identity(p) {
    try {
      const s = statSync(p, { bigint: true, throwIfNoEntry: false });
      return s ? `${s.dev}:${s.ino}` : undefined;
    } catch {
      return undefined;
    }
  },
};

/** `abc` → `ABC`, `Abc` → `aBC`: the name a case-insensitive file system treats as the same. */
function swapCase(name: string): string {
  let out = '';
  for (const ch of name) {
    const up = ch.toUpperCase();
    out += up === ch ? ch.toLowerCase() : up;
  }
  return out;
}

export interface RealPath {
  /** The absolute real path (the given one, normalized, when nothing of it exists). */
  path: string;
  /** True when the file system holding it treats names differing only in case as the same file. */
  caseInsensitive: boolean;
}

/** The parts of `node:path` resolution needs: the native module, or `path.win32` to test Windows paths anywhere. */
export type ResolverPaths = Pick<typeof nodePath, 'basename' | 'dirname' | 'join' | 'resolve'>;

/** Resolves real paths with a cache; make one per hook call (the disk may change between calls). */
export class PathResolver {
  private readonly real = new Map<string, string>();
  private readonly nocase = new Map<string, boolean>();
  private readonly present = new Map<string, boolean>();

  constructor(
    private readonly probe: FsProbe = nodeProbe,
    private readonly paths: ResolverPaths = nodePath,
  ) {}

  /** The real path of absolute `path` and the case sensitivity of the file system it lives on. */
  resolve(path: string): RealPath {
    const real = this.realPath(this.paths.resolve(path), 0);
    return { path: real, caseInsensitive: this.caseInsensitive(real) };
  }

  /** True when `path` (resolved) exists. */
  exists(path: string): boolean {
    return this.probe.identity(path) !== undefined;
  }

  /** Whether `path` exists, asked once per resolver (the case probe asks it of shared ancestors again and again). */
  private existing(path: string): boolean {
    let known = this.present.get(path);
    if (known === undefined) {
      known = this.probe.exists ? this.probe.exists(path) : this.probe.identity(path) !== undefined;
      this.present.set(path, known);
    }
    return known;
  }

  private realPath(path: string, hops: number): string {
    const { basename, dirname, join, resolve } = this.paths;
    const known = this.real.get(path);
    if (known !== undefined) return known;
    let out: string | undefined;
    try {
      out = this.probe.realpath(path);
    } catch {
      out = undefined;
    }
    if (out === undefined) {
      const parent = dirname(path);
      if (parent === path) out = path;
      else {
        // The parent first (one level per call: linear in the depth), then this name inside the real parent.
        const joined = join(this.realPath(parent, hops), basename(path));
        const link = hops < MAX_LINK_HOPS ? this.probe.readlink(joined) : undefined;
        // A dangling symlink: writing through it creates its target, so the target is what the change touches.
        out = link === undefined ? joined : this.realPath(resolve(dirname(joined), link), hops + 1);
      }
    }
    this.real.set(path, out);
    return out;
  }

  /**
   * Whether the directory holding the nearest existing part of `real` ignores case: the same inode under the
   * case-swapped name means it does. Never assumed from the OS (macOS volumes and Linux casefold folders differ).
   */
  private caseInsensitive(real: string): boolean {
    const { basename, dirname, join } = this.paths;
    for (let p = real; ; p = dirname(p)) {
      if (dirname(p) === p) return false;
      const name = basename(p);
      const swapped = swapCase(name);
      if (swapped === name) continue; // no letters to swap: ask the next ancestor
      if (!this.existing(p)) continue; // does not exist yet: its nearest existing ancestor decides
      const dir = dirname(p);
      const cached = this.nocase.get(dir);
      if (cached !== undefined) return cached;
      // Inodes compared only here, once per folder: a stat with bigint fields costs more than the existence test.
      const id = this.probe.identity(p);
      if (id === undefined) continue; // removed since: its nearest existing ancestor decides
      const answer = this.probe.identity(join(dir, swapped)) === id;
      this.nocase.set(dir, answer);
      return answer;
    }
  }
}
