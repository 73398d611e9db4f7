/**
 * The user's own changes to what avp installed, found before avp replaces or deletes anything: an installed
 * validator whose files no longer hash to the lockfile's `treeIntegrity` was edited (a block message may have told
 * the user to edit `protected.txt`), and a folder without a lock entry was written by hand. Neither is ever
 * overwritten or deleted without `--force`.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AvpError } from '../errors.ts';
import { treeIntegrity } from './archive.ts';
import { lockfilePath, readLockfile, scopeValidatorsDir, type LockEntry, type Scope } from './lockfile.ts';

/**
 * Written into every validator avp installs: the tree integrity of what it installed. It travels with the folder
 * (committed with it, or not), so `avp install` after a pull that changed the lockfile still tells an old unedited
 * version from an edited one. Dotfiles are never part of a package, so it changes no integrity.
 */
export const INSTALLED_MARKER = '.avp-installed';

/** Every file of a directory but dotfiles (never part of a package), by relative path: `treeIntegrity`'s input. */
function treeFiles(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const walk = (rel: string) => {
    for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
      if (d.name.startsWith('.')) continue;
      const child = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(child);
      else files.set(child, readFileSync(join(dir, child)));
    }
  };
  walk('');
  return files;
}

/** Integrity of an installed validator directory (path order), comparable with the lock's `treeIntegrity`. */
export function installedTreeIntegrity(dir: string): string | undefined {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  return treeIntegrity([...treeFiles(dir)].map(([path, data]) => ({ path, data })));
}

/** Files that differ between two directories (changed, added or deleted), sorted. */
function differingFiles(a: string, b: string): string[] {
  const fa = treeFiles(a);
  const fb = existsSync(b) ? treeFiles(b) : new Map<string, Uint8Array>();
  const out = new Set<string>();
  for (const [p, data] of fa) if (!fb.has(p) || Buffer.compare(Buffer.from(data), Buffer.from(fb.get(p)!))) out.add(p);
  for (const p of fb.keys()) if (!fa.has(p)) out.add(p);
  return [...out].sort();
}

/** Records what was installed into a (staged) validator directory. */
export function markInstalled(dir: string): void {
  writeFileSync(join(dir, INSTALLED_MARKER), `${installedTreeIntegrity(dir)}\n`);
}

/**
 * True when `dir` no longer matches what avp installed there: its marker, else the lock entry's `treeIntegrity`.
 * Without either (installed by an older avp) nothing can be compared and it counts as unedited.
 */
export function editedSinceInstall(dir: string, entry: LockEntry | undefined): boolean {
  let expected = entry?.treeIntegrity;
  try {
    expected = readFileSync(join(dir, INSTALLED_MARKER), 'utf8').trim() || expected;
  } catch {
    // No marker: the lock entry says what was installed.
  }
  if (!expected) return false;
  const now = installedTreeIntegrity(dir);
  return now !== undefined && now !== expected;
}

/**
 * The refusal for an edited validator. `pristine` is a copy of the package as avp installed it (same tree
 * integrity), when one is at hand: then the edited files are named.
 */
export function editedError(name: string, dir: string, action: string, pristine?: string): AvpError {
  let which = '';
  if (pristine) {
    const files = differingFiles(dir, pristine);
    if (files.length)
      which = ` (${files.slice(0, 5).join(', ')}${files.length > 5 ? `, … ${files.length - 5} more` : ''})`;
  }
  return new AvpError(
    'local-edits',
    `${dir} was edited after avp installed ${name}${which}; avp did not ${action} it`,
    {
      fix: `keep your edits: copy the folder elsewhere first (or publish it under another name); to ${action} it anyway and lose them, run the command again with --force`,
    },
  );
}

/** Where a name lives in the other scope, for "not in this scope" messages: a hint naming the flag, or ''. */
export function otherScopeHint(
  name: string,
  scope: Scope,
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  command: string,
): string {
  const other: Scope = scope === 'user' ? 'project' : 'user';
  const dir = scopeValidatorsDir(other, projectRoot, env);
  let inLock = false;
  try {
    inLock = Boolean(readLockfile(lockfilePath(other, projectRoot, env)).packages[name]);
  } catch {
    // An unreadable lockfile of the other scope says nothing about this one.
  }
  if (!inLock && !existsSync(join(dir, name)) && !existsSync(join(dir, `${name}.md`))) return '';
  return `it is in the ${other} scope (${dir}): avp ${command} ${name} --${other}`;
}
