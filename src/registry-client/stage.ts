import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { AvpError } from '../errors.ts';
import { extractArchive, type ArchiveInfo } from './archive.ts';
import { alive } from '../os/file-lock.ts';

/**
 * A package extracted next to (not inside) the validators directory — `<scope home>/.staging/<random>/<name>` — so
 * that the final `rename` into `validators/` is on the same filesystem, hence atomic, and discovery never sees a
 * half-written validator.
 */
export interface Staged {
  /** The staging folder (removed by `discard`). */
  root: string;
  /** The extracted validator directory inside it. */
  dir: string;
  name: string;
}

/** Written into the staging folder just before the renames; its presence later means "interrupted here". */
interface Journal {
  name: string;
  hadOld: boolean;
  /** Tree integrity of the new version: the lockfile holding it means the install completed. */
  newTree: string;
}

/** Staging folders older than this were left by a killed avp (a live install takes seconds) and are swept. */
const STALE_STAGING_MS = 60 * 60_000;

/** Extracts a checked package into a fresh staging folder of the scope (see `Staged`). */
export async function stagePackage(scopeHome: string, name: string, info: ArchiveInfo): Promise<Staged> {
  const staging = join(scopeHome, '.staging');
  mkdirSync(staging, { recursive: true });
  // The owner's pid is part of the name (no window in which the folder exists unowned): a sweep removes the
  // folders of processes that died mid-install.
  const root = mkdtempSync(join(staging, `${name}.${process.pid}.`));
  const dir = join(root, name);
  try {
    await extractArchive(info, dir);
  } catch (e) {
    removeTree(root);
    throw e;
  }
  return { root, dir, name };
}

/** Removes a staging folder and whatever is left in it. */
export function discard(staged: Staged): void {
  removeTree(staged.root);
}

/**
 * Deletes a staging folder by first renaming it to `.trash-…` (atomic), so a process killed halfway through the
 * recursive delete leaves an obvious piece of garbage, never a half-deleted folder that looks owned.
 */
function removeTree(path: string): void {
  if (!existsSync(path)) return;
  const trash = join(dirname(path), `.trash-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    renameSync(path, trash);
  } catch {
    return; // already gone
  }
  try {
    rmSync(trash, { recursive: true, force: true });
  } catch {}
}

/**
 * Moves a staged validator into `validatorsDir/<name>`. Replacing: the old directory is renamed aside into the
 * staging folder, the new one renamed in; if that fails the old one is put back. The caller then records the
 * install in the lockfile and calls `finish` (or `rollback` if recording failed). A journal written first lets
 * `recoverInterrupted` undo a process killed between these steps. Must run under the scope lock.
 */
export function commitStaged(
  staged: Staged,
  validatorsDir: string,
  newTree: string,
): { rollback(): void; finish(): void } {
  mkdirSync(validatorsDir, { recursive: true });
  const target = join(validatorsDir, staged.name);
  const aside = join(staged.root, '.previous');
  const hadOld = existsSync(target);
  writeFileSync(
    join(staged.root, 'journal.json'),
    JSON.stringify({ name: staged.name, hadOld, newTree } satisfies Journal),
  );
  if (hadOld) renameSync(target, aside);
  try {
    renameSync(staged.dir, target);
  } catch (e) {
    if (hadOld) renameSync(aside, target);
    throw new AvpError(
      'install-rename-failed',
      `could not move the new ${staged.name} into ${validatorsDir}: ${(e as Error).message}`,
      {
        fix: 'check permissions of the validators directory; the previous version is untouched',
        cause: e,
      },
    );
  }
  return {
    rollback() {
      renameSync(target, staged.dir);
      if (hadOld) renameSync(aside, target);
      discard(staged);
    },
    finish() {
      discard(staged);
    },
  };
}

/**
 * Undoes installs interrupted by a killed process (their journals are left in the staging folder), then sweeps
 * staging folders whose process died (or older than an hour). An interrupted install goes back to the previous state
 * unless the lockfile
 * already records the new version (then only the cleanup was missing). Must run under the scope lock: journals of
 * live installs exist only while their process holds it.
 */
export function recoverInterrupted(
  scopeHome: string,
  validatorsDir: string,
  lockedTree: (name: string) => string | undefined,
): string[] {
  const staging = join(scopeHome, '.staging');
  if (!existsSync(staging)) return [];
  const recovered: string[] = [];
  for (const entry of readdirSync(staging)) {
    const root = join(staging, entry);
    const journalPath = join(root, 'journal.json');
    if (existsSync(journalPath)) {
      let j: Journal | undefined;
      try {
        j = JSON.parse(readFileSync(journalPath, 'utf8')) as Journal;
      } catch {}
      if (j && /^[a-z0-9-]{1,64}$/.test(j.name)) {
        const target = join(validatorsDir, j.name);
        const aside = join(root, '.previous');
        const completed = lockedTree(j.name) === j.newTree;
        if (!existsSync(target) && existsSync(aside)) {
          renameSync(aside, target); // killed between the two renames
          recovered.push(j.name);
        } else if (!completed && existsSync(aside)) {
          renameSync(target, join(root, '.discarded')); // new one in, lockfile not written: back to the old one
          renameSync(aside, target);
          recovered.push(j.name);
        } else if (!completed && !j.hadOld && existsSync(target)) {
          renameSync(target, join(root, '.discarded')); // a fresh install the lockfile never recorded
          recovered.push(j.name);
        }
      }
      removeTree(root);
      continue;
    }
    try {
      if (entry.startsWith('.trash-')) rmSync(root, { recursive: true, force: true });
      else if (ownerDead(entry) || Date.now() - statSync(root).mtimeMs > STALE_STAGING_MS) removeTree(root);
    } catch {}
  }
  return recovered;
}

/** `<name>.<pid>.<random>`: is that pid gone? (Names have no dots; other folders are left to the age rule.) */
function ownerDead(entry: string): boolean {
  const m = /^[a-z0-9-]+\.(\d+)\.[^.]+$/.exec(entry);
  return m !== null && !alive(Number(m[1]));
}

/** Removes `validatorsDir/<name>` atomically (rename aside, then delete). */
export function removeInstalled(scopeHome: string, validatorsDir: string, name: string): boolean {
  const target = join(validatorsDir, name);
  if (!existsSync(target)) return false;
  const staging = join(scopeHome, '.staging');
  mkdirSync(staging, { recursive: true });
  const aside = mkdtempSync(join(staging, `${name}.${process.pid}.`));
  renameSync(target, join(aside, name));
  removeTree(aside);
  return true;
}
