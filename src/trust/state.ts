/**
 * Live control files against the accepted record: what is pending (added, changed, deleted since the user last
 * accepted). A stat fingerprint (size, mtime, ctime, inode) equal to the one recorded at acceptance means unchanged;
 * otherwise the file is hashed, and a file whose bytes still match (touched, checked out again) is remembered in
 * `verified.json` so it is hashed once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularText } from '../os/read-regular.ts';
import { liveListing, type Listing } from '../validator/listing.ts';
import {
  projectControlFiles,
  projectEnvFiles,
  projectHookFiles,
  projectOwnedHookFiles,
  userControlFiles,
  userEnvFiles,
  userHookFiles,
  userOwnedHookFiles,
  type ControlFile,
  type TrustScope,
} from './control-files.ts';
import { envSwitchLines } from './env-switches.ts';
import { hooksOff } from './hook-switches.ts';
import { digest, readRecord, sameFingerprint, statFingerprint, trustDir, type TrustRecord } from './store.ts';

export interface PendingChange {
  scope: TrustScope;
  key: string;
  change: 'added' | 'changed' | 'deleted';
  /** The live file (absent for a deletion). */
  file?: ControlFile;
  /** For an agent's hook settings: why the agent may no longer call avp (the file gone, avp's entries or hooks off). */
  off?: string;
}

export interface ScopeState {
  scope: TrustScope;
  base: string;
  dir: string;
  /** Undefined when the user never accepted this scope. */
  record?: TrustRecord;
  live: ControlFile[];
  pending: PendingChange[];
}

/** The keys of every agent's hook settings and avp's own hook files (the same in every project and for every user). */
const HOOK_KEYS = new Set(
  [
    ...projectHookFiles(''),
    ...userHookFiles({ HOME: '' }),
    ...projectOwnedHookFiles(''),
    ...userOwnedHookFiles({ HOME: '' }),
  ].map((f) => f.key),
);

/** The keys of the `.env` files the agents read: their deletion removes switches, so it is no change to accept. */
const ENV_KEYS = new Set([...projectEnvFiles(''), ...userEnvFiles({ HOME: '' })].map((f) => f.key));

/** The first line of a `.env` file that switches hooks off, or undefined. */
function envSwitch(path: string): string | undefined {
  try {
    return envSwitchLines(readRegularText(path))[0];
  } catch {
    return undefined;
  }
}

function readVerified(dir: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(join(dir, 'verified.json'), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

/**
 * Compares one scope's live control files with its record. `base`: the project root, or `$AVP_HOME`; `fs`: how the
 * folders are listed and stat'ed (hook mode: the call's snapshot, which discovery then reuses).
 */
export function scopeState(
  scope: TrustScope,
  base: string,
  env: NodeJS.ProcessEnv,
  fs: Listing = liveListing,
): ScopeState {
  const dir = trustDir(scope, base, env);
  const record = readRecord(dir);
  const live = scope === 'project' ? projectControlFiles(base, fs) : userControlFiles(env, fs);
  const pending: PendingChange[] = [];
  if (!record) {
    for (const file of live) pending.push({ scope, key: file.key, change: 'added', file });
    return { scope, base, dir, record, live, pending };
  }
  let verified: Record<string, string> | undefined;
  let learned = false;
  const seen = new Set<string>();
  for (const file of live) {
    seen.add(file.key);
    const accepted = record.files[file.key];
    if (file.kind === 'env') {
      // Pending only for a switching line the user has not accepted; an ordinary edit is vouched for by its stat.
      const fp = statFingerprint(file.path, fs);
      if (accepted && sameFingerprint(fp, accepted.fp)) continue;
      verified ??= readVerified(dir);
      const vouched = `${accepted?.sha ?? '-'}@${fp}`;
      if (verified[file.key] === vouched) continue;
      const off = envSwitch(file.path);
      if (off && digest(file) !== accepted?.sha) {
        const change = accepted ? 'changed' : 'added';
        pending.push({ scope, key: file.key, change, file, off: `it now has ${off}` });
        continue;
      }
      if (!fp.startsWith('racy:')) {
        verified[file.key] = vouched;
        learned = true;
      }
      continue;
    }
    if (!accepted) {
      // A new settings file can switch every hook off (`disableAllHooks` in `.claude/settings.local.json`).
      const off = file.kind === 'hooks' ? hooksOff(file) : undefined;
      pending.push({ scope, key: file.key, change: 'added', file, ...(off ? { off } : {}) });
      continue;
    }
    const fp = statFingerprint(file.path, fs);
    if (sameFingerprint(fp, accepted.fp)) continue;
    verified ??= readVerified(dir);
    if (verified[file.key] === `${accepted.sha}@${fp}`) continue;
    if (digest(file) === accepted.sha) {
      // avp's entries are as accepted, but a switch beside them (`disableAllHooks`, `hooks.enabled`) turns them off.
      const off = file.kind === 'hooks' ? hooksOff(file) : undefined;
      if (off) {
        pending.push({ scope, key: file.key, change: 'changed', file, off });
        continue;
      }
      if (!fp.startsWith('racy:')) {
        verified[file.key] = `${accepted.sha}@${fp}`;
        learned = true;
      }
      continue;
    }
    // The entries differ from the accepted ones, which were avp's: none now means they were removed.
    const off = file.kind === 'hooks' ? hooksOff(file, true) : undefined;
    pending.push({ scope, key: file.key, change: 'changed', file, ...(off ? { off } : {}) });
  }
  for (const key of Object.keys(record.files)) {
    if (seen.has(key) || ENV_KEYS.has(key)) continue;
    const hooks = HOOK_KEYS.has(key);
    pending.push({ scope, key, change: 'deleted', ...(hooks ? { off: 'the file was removed' } : {}) });
  }
  if (learned) {
    try {
      writeFileSync(join(dir, 'verified.json'), JSON.stringify(verified));
    } catch {
      // only speed is lost
    }
  }
  return { scope, base, dir, record, live, pending };
}

/** A stable fingerprint of a pending set (to tell the user about each new set once). */
export function pendingFingerprint(pending: PendingChange[]): string {
  return pending
    .map((p) => `${p.scope}:${p.change}:${p.key}${p.off ? ':hooks-off' : ''}`)
    .sort()
    .join('\n');
}

/** One line per change, for people: `added .avp/validators/x.md`. */
export function describePending(pending: PendingChange[], max = 6): string {
  const parts = pending.slice(0, max).map((p) => `${p.change} ${p.key}`);
  if (pending.length > max) parts.push(`and ${pending.length - max} more`);
  return parts.join(', ');
}
