import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AvpError } from '../errors.ts';
import { extractArchive, type ArchiveInfo } from './archive.ts';

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

/** Staging folders older than this were left by a killed avp (a live install takes seconds) and are swept. */
const STALE_STAGING_MS = 60 * 60_000;

function sweepStale(staging: string): void {
  for (const entry of readdirSync(staging)) {
    const p = join(staging, entry);
    try {
      if (Date.now() - statSync(p).mtimeMs > STALE_STAGING_MS) rmSync(p, { recursive: true, force: true });
    } catch {}
  }
}

export async function stagePackage(scopeHome: string, name: string, info: ArchiveInfo): Promise<Staged> {
  const staging = join(scopeHome, '.staging');
  mkdirSync(staging, { recursive: true });
  sweepStale(staging);
  const root = mkdtempSync(join(staging, `${name}-`));
  const dir = join(root, name);
  try {
    await extractArchive(info, dir);
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  return { root, dir, name };
}

export function discard(staged: Staged): void {
  rmSync(staged.root, { recursive: true, force: true });
}

/**
 * Moves a staged validator into `validatorsDir/<name>`. Replacing: the old directory is renamed aside into the
 * staging folder, the new one renamed in; if that fails the old one is put back. At every instant
 * `validators/<name>` is either the complete old or the complete new version. The old copy is kept until `finish`
 * (so `rollback` can restore it if recording the install in the lockfile fails).
 */
export function commitStaged(staged: Staged, validatorsDir: string): { rollback(): void; finish(): void } {
  mkdirSync(validatorsDir, { recursive: true });
  const target = join(validatorsDir, staged.name);
  const aside = join(staged.root, '.previous');
  const hadOld = existsSync(target);
  if (hadOld) renameSync(target, aside);
  try {
    renameSync(staged.dir, target);
  } catch (e) {
    if (hadOld) renameSync(aside, target);
    throw new AvpError('install-rename-failed', `could not move the new ${staged.name} into ${validatorsDir}: ${(e as Error).message}`, {
      fix: 'check permissions of the validators directory; the previous version is untouched',
      cause: e,
    });
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

/** Removes `validatorsDir/<name>` atomically (rename aside, then delete). */
export function removeInstalled(scopeHome: string, validatorsDir: string, name: string): boolean {
  const target = join(validatorsDir, name);
  if (!existsSync(target)) return false;
  const staging = join(scopeHome, '.staging');
  mkdirSync(staging, { recursive: true });
  const aside = mkdtempSync(join(staging, `removed-${name}-`));
  renameSync(target, join(aside, name));
  rmSync(aside, { recursive: true, force: true });
  return true;
}
