/**
 * Live control files against the accepted record: what is pending (added, changed, deleted since the user last
 * accepted). A stat fingerprint (size, mtime, ctime, inode) equal to the one recorded at acceptance means unchanged;
 * otherwise the file is hashed, and a file whose bytes still match (touched, checked out again) is remembered in
 * `verified.json` so it is hashed once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { liveListing, type Listing } from '../validator/listing.ts';
import { projectControlFiles, userControlFiles, type ControlFile, type TrustScope } from './control-files.ts';
import { digest, readRecord, sameFingerprint, statFingerprint, trustDir, type TrustRecord } from './store.ts';

export interface PendingChange {
  scope: TrustScope;
  key: string;
  change: 'added' | 'changed' | 'deleted';
  /** The live file (absent for a deletion). */
  file?: ControlFile;
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
    if (!accepted) {
      pending.push({ scope, key: file.key, change: 'added', file });
      continue;
    }
    const fp = statFingerprint(file.path, fs);
    if (sameFingerprint(fp, accepted.fp)) continue;
    verified ??= readVerified(dir);
    if (verified[file.key] === `${accepted.sha}@${fp}`) continue;
    if (digest(file) === accepted.sha) {
      if (!fp.startsWith('racy:')) {
        verified[file.key] = `${accepted.sha}@${fp}`;
        learned = true;
      }
      continue;
    }
    pending.push({ scope, key: file.key, change: 'changed', file });
  }
  for (const key of Object.keys(record.files)) {
    if (!seen.has(key)) pending.push({ scope, key, change: 'deleted' });
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
    .map((p) => `${p.scope}:${p.change}:${p.key}`)
    .sort()
    .join('\n');
}

/** One line per change, for people: `added .avp/validators/x.md`. */
export function describePending(pending: PendingChange[], max = 6): string {
  const parts = pending.slice(0, max).map((p) => `${p.change} ${p.key}`);
  if (pending.length > max) parts.push(`and ${pending.length - max} more`);
  return parts.join(', ');
}
