/**
 * Finds the validator units under a validators folder without reading any of them: single files (`name.md`) and
 * directory validators (a folder holding `VALIDATOR.md`, RuleSets included). Cheap enough for every hook call: only
 * `readdir` and `stat`, no YAML.
 */
import { realpathSync, type Dirent } from 'node:fs';
import { basename, join } from 'node:path';
import { liveListing, type Listing } from './listing.ts';

/** One validator unit found by the walk, or a layout error. */
export type Unit =
  | { kind: 'file'; path: string }
  /** `top`: the folder's listing, already read by the walk (saves a readdir per unit on the hook path). */
  | { kind: 'dir'; dir: string; top?: readonly Dirent[] }
  /** A layout problem found by the walk itself (no parsing needed). */
  | { kind: 'stray'; path: string; message: string; fix: string };

/** Folders that make a directory look like a validator. */
const VALIDATOR_PARTS = ['scripts', 'references', 'assets', 'rules'];

/** Entries never looked at: dotfiles and dot-folders (`.git`, `.DS_Store`) and `node_modules`. */
export function skipped(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** `README.md` (any case, also `README-team.md`) in an organisation folder documents it; it is never a validator. */
export function isReadme(name: string): boolean {
  return /^readme.*\.md$/i.test(name);
}

/**
 * Follows symlinks (validators installed as links), classified by their target, but not into loops: a link to a
 * folder that contains the one being walked (`real` = its real path) is skipped.
 */
function kindOf(dir: string, e: Dirent, fs: Listing, real?: string): 'dir' | 'file' | undefined {
  if (e.isDirectory()) return 'dir';
  if (e.isFile()) return 'file';
  if (e.isSymbolicLink()) {
    try {
      const p = join(dir, e.name);
      const s = fs.stat(p);
      if (!s || s === 'error') return undefined;
      if (s.isFile()) return 'file';
      if (!s.isDirectory()) return undefined;
      const target = realpathSync(p);
      const here = real ?? realpathSync(dir);
      return here === target || here.startsWith(`${target}/`) ? undefined : 'dir';
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * All units under `root` (a source's validators folder), depth-first in name order so results are stable.
 * `root` itself is an organisation folder even when it holds a `VALIDATOR.md` (reported as a stray).
 */
export function walkValidators(root: string, fs: Listing = liveListing): Unit[] {
  const units: Unit[] = [];
  const visit = (dir: string, depth: number) => {
    if (depth > 32) return; // symlink loops
    const list = fs.entries(dir);
    const names = new Set(list.map((e) => e.name));
    if (depth > 0 && names.has('VALIDATOR.md')) {
      units.push({ kind: 'dir', dir, top: list });
      return;
    }
    if (depth === 0 && names.has('VALIDATOR.md')) {
      units.push({
        kind: 'stray',
        path: join(dir, 'VALIDATOR.md'),
        message: 'VALIDATOR.md directly in the validators folder is not a validator',
        fix: `move it into a folder named after the validator: ${join(dir, '<name>', 'VALIDATOR.md')}`,
      });
    }
    const parts = list
      .filter((e) => VALIDATOR_PARTS.includes(e.name) && kindOf(dir, e, fs) === 'dir')
      .map((e) => e.name);
    if (depth > 0 && parts.length > 0) {
      // A folder with scripts/ or rules/ but no VALIDATOR.md is a broken directory validator, not an organisation
      // folder: loading its rules/*.md as validators of their own would run them without their RuleSet.
      units.push({
        kind: 'stray',
        path: join(dir, 'VALIDATOR.md'),
        message: `folder ${basename(dir)} has ${parts.map((p) => `${p}/`).join(', ')} but no VALIDATOR.md`,
        fix: `create ${join(dir, 'VALIDATOR.md')} (frontmatter with name: ${basename(dir)}), or rename the ${parts.join('/')} folder`,
      });
      return;
    }
    for (const e of list) {
      if (skipped(e.name) || e.name === 'VALIDATOR.md') continue;
      const kind = kindOf(dir, e, fs);
      if (kind === 'dir') visit(join(dir, e.name), depth + 1);
      else if (kind === 'file' && e.name.endsWith('.md') && !isReadme(e.name))
        units.push({ kind: 'file', path: join(dir, e.name) });
    }
  };
  visit(root, 0);
  return units;
}

/**
 * A directory validator's own test cases (`avp test`): never part of what runs, so never walked, hashed or
 * discovered on the hook path — a case file named `x.md` there is no validator.
 */
export const TESTS_DIR = 'tests';

/**
 * Every file under a directory validator, or a folder of them (sorted; dotfiles, node_modules and each validator's
 * `tests/` skipped): its hash input, and the accepted state's control files. With
 * `withDirs`, folders are listed too (as `path/`): the parse cache's view, so that even an empty new `rules/` is seen.
 */
export function filesUnder(
  dir: string,
  top?: readonly Dirent[],
  withDirs = false,
  fs: Listing = liveListing,
): string[] {
  const out: string[] = [];
  const visit = (d: string, depth: number) => {
    if (depth > 32) return;
    const list = depth === 0 && top ? top : fs.entries(d);
    const inValidator = list.some((e) => e.name === 'VALIDATOR.md');
    for (const e of list) {
      if (skipped(e.name) || (inValidator && e.name === TESTS_DIR)) continue;
      const kind = kindOf(d, e, fs);
      if (kind === 'dir') {
        if (withDirs) out.push(`${join(d, e.name)}/`);
        visit(join(d, e.name), depth + 1);
      } else if (kind === 'file') out.push(join(d, e.name));
    }
  };
  visit(dir, 0);
  return out.sort();
}
