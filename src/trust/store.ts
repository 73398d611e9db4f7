/**
 * The accepted state, kept outside the project in `$AVP_HOME/trust/`: per project (keyed by the hash of its real
 * path) and once for the user, a record of every control file's digest and a copy of the validators and config
 * files (`tree/`) that hook mode runs on while the live files differ. Writes are atomic: a new tree is built beside
 * the old one and swapped in, then the record is replaced, so a crash leaves either state whole.
 */
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { readRegularFile } from '../os/read-regular.ts';
import { AvpError } from '../errors.ts';
import { liveListing, type Listing } from '../validator/listing.ts';
import { avpHome } from '../paths.ts';
import { treePath, type ControlFile, type TrustScope } from './control-files.ts';
import { appendAcceptance, logSize, type AcceptanceEntry } from './acceptance-log.ts';
import { avpHookEntries } from './hook-entries.ts';
import { envSwitchLines } from './env-switches.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';
import { withLockSync } from '../os/dir-lock.ts';

export { avpHookEntries };

/** One accepted file: its digest, and the stat fingerprint it had when accepted (a cheap "unchanged"). */
export interface AcceptedFile {
  sha: string;
  fp: string;
}

export interface TrustRecord {
  format: 1;
  scope: TrustScope;
  /** The project's real path (project scope) or `$AVP_HOME` (user scope). */
  base: string;
  acceptedAt: string;
  files: Record<string, AcceptedFile>;
  /** The byte offset of this acceptance's line in the scope's acceptance log (absent: written by an older avp). */
  log?: number;
  /** SHA-256 of the record file's bytes as read (not stored: filled in by `readRecord`). */
  sha?: string;
}

/**
 * `$AVP_HOME/trust/projects/<16 hex of sha256(real path)>` or `$AVP_HOME/trust/user`. Hashes on the hook path use
 * `Bun.CryptoHasher`, not `node:crypto`: loading that module (and the stream modules its Hash is built on) cost
 * ~2 ms of CPU on every hook call (bench/hook-cost.ts).
 */
export function trustDir(scope: TrustScope, base: string, env: NodeJS.ProcessEnv): string {
  const root = join(avpHome(env), 'trust');
  if (scope === 'user') return join(root, 'user');
  return join(root, 'projects', new Bun.CryptoHasher('sha256').update(realBase(base)).digest('hex').slice(0, 16));
}

/** The real path of a project root (so a symlinked checkout and its target share one record). */
export function realBase(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * `size:mtimeMs:ctimeMs:ino`, or `-` when missing (`!` when it cannot be stat'ed). Anyone can set a file's mtime
 * back (`touch -d`), nobody but the kernel sets its ctime, and a file moved over another one keeps its own inode: an
 * edit cannot keep this fingerprint. Files changed in the last 2 s get `racy:` (coarse timestamps): never equal, so
 * they are hashed. `fs`: where the stat comes from (hook mode: the call's snapshot, shared with discovery).
 */
export function statFingerprint(path: string, fs: Listing = liveListing): string {
  const s = fs.stat(path);
  if (!s) return '-';
  if (s === 'error') return '!';
  const fp = `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`;
  return Date.now() - Math.max(s.mtimeMs, s.ctimeMs) < 2000 ? `racy:${fp}` : fp;
}

/**
 * True when a live fingerprint is the recorded one (a racy one never is). A record written before the inode was
 * part of the fingerprint (`size:mtimeMs:ctimeMs`) is compared without it, as it was then: otherwise every upgraded
 * user would read the verified list on every call until their next `avp accept`.
 */
export function sameFingerprint(live: string, recorded: string): boolean {
  // A stat taken within 2 s of a change proves nothing (an edit in the same timestamp tick keeps it): hash.
  if (live.startsWith('racy:')) return false;
  if (live === recorded) return true;
  return recorded.split(':').length === 3 && live.slice(0, live.lastIndexOf(':')) === recorded;
}

/**
 * The digest of a control file: its bytes, for hook settings only avp's own hook entries, for a `.env` file only its
 * lines that switch hooks off (`-` when unreadable).
 */
export function digest(file: ControlFile): string {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file.path);
  } catch {
    return '-';
  }
  if (file.kind === 'env')
    return new Bun.CryptoHasher('sha256').update(envSwitchLines(bytes.toString('utf8')).join('\n')).digest('hex');
  if (file.kind === 'hooks')
    return new Bun.CryptoHasher('sha256').update(avpHookEntries(bytes.toString('utf8'))).digest('hex');
  return new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
}

/** The scope's record, or undefined when none was ever accepted (or it is unreadable). */
export function readRecord(dir: string): TrustRecord | undefined {
  try {
    const bytes = readFileSync(join(dir, 'accepted.json'));
    const r = JSON.parse(bytes.toString('utf8')) as TrustRecord;
    if (r?.format !== 1 || !r.files || typeof r.files !== 'object') return undefined;
    return { ...r, sha: new Bun.CryptoHasher('sha256').update(bytes).digest('hex') };
  } catch {
    return undefined;
  }
}

/** The trust store's files are the user's alone. */
function writePrivate(path: string, text: string): void {
  writeFileAtomic(path, text, { mode: 0o600 });
}

/** Who accepts: the command, and (for the log) where it runs. */
export interface Accepter {
  by: string;
  origin: AcceptanceEntry['origin'];
}

/**
 * Records `accept` (control files whose live state becomes the accepted one) and drops `forget` (accepted keys
 * deleted live), keeping every other accepted entry and its copy as it was, and logs the acceptance
 * (acceptance-log.ts). Returns the new record.
 */
export function writeAccepted(
  scope: TrustScope,
  base: string,
  env: NodeJS.ProcessEnv,
  accept: ControlFile[],
  forget: string[],
  accepter: Accepter,
): TrustRecord {
  const dir = trustDir(scope, base, env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Several avp processes may accept at once (parallel `avp add`): one at a time, each on the newest record.
  return withTrustLock(dir, () => {
    const old = readRecord(dir);
    const files: Record<string, AcceptedFile> = { ...(old?.files ?? {}) };
    const changes: AcceptanceEntry['changes'] = [];
    for (const key of forget) {
      if (files[key]) changes.push({ key, change: 'deleted' });
      delete files[key];
    }
    const next = join(dir, `tree.${process.pid}.${Date.now()}`);
    const oldTree = join(dir, 'tree');
    const accepted = new Map<string, { bytes: Buffer; mode: number } | undefined>();
    const noteChange = (key: string, sha: string) => {
      if (files[key]?.sha !== sha) changes.push({ key, change: files[key] ? 'changed' : 'added' });
    };
    for (const f of accept) {
      const fp = statFingerprint(f.path);
      if (f.kind === 'hooks' || f.kind === 'env') {
        const sha = digest(f);
        noteChange(f.key, sha);
        files[f.key] = { sha, fp };
        continue;
      }
      let bytes: Buffer;
      let mode: number;
      try {
        bytes = readFileSync(f.path);
        mode = statSync(f.path).mode & 0o777;
      } catch {
        continue; // gone since it was listed (another process replaced it): it stays as it was accepted before
      }
      const sha = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
      noteChange(f.key, sha);
      files[f.key] = { sha, fp };
      accepted.set(f.key, f.copy ? { bytes, mode } : undefined);
    }
    // The new tree: the old accepted copies that stay, then the newly accepted files, from the bytes just hashed.
    mkdirSync(next, { recursive: true });
    for (const key of Object.keys(files)) {
      if (accepted.has(key)) continue;
      const from = treePath(oldTree, key);
      try {
        statSync(from);
      } catch {
        continue; // a digest-only entry (lockfile, hook settings)
      }
      mkdirSync(dirname(treePath(next, key)), { recursive: true });
      copyFileSync(from, treePath(next, key));
      chmodSync(treePath(next, key), statSync(from).mode & 0o777);
    }
    for (const [key, copy] of accepted) {
      if (!copy) continue;
      const to = treePath(next, key);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, copy.bytes);
      // The copy runs in the live file's place while a change is pending: a script validator must stay executable.
      chmodSync(to, copy.mode);
    }
    const retired = `${oldTree}.old.${process.pid}`;
    try {
      renameSync(oldTree, retired);
    } catch {
      // no previous tree
    }
    renameSync(next, oldTree);
    rmSync(retired, { recursive: true, force: true });
    const record: TrustRecord = {
      format: 1,
      scope,
      base: scope === 'project' ? realBase(base) : base,
      acceptedAt: new Date().toISOString(),
      files,
      log: logSize(dir),
    };
    const text = `${JSON.stringify(record, null, 1)}\n`;
    // The log line first: a record is only ever in place once its line is there to vouch for it.
    appendAcceptance(dir, {
      at: record.acceptedAt,
      scope,
      base: record.base,
      by: accepter.by,
      changes,
      record: new Bun.CryptoHasher('sha256').update(text).digest('hex'),
      origin: accepter.origin,
    });
    writePrivate(join(dir, 'accepted.json'), text);
    rmSync(join(dir, 'verified.json'), { force: true });
    return record;
  });
}

/**
 * Runs `fn` holding `<dir>.lock` (os/dir-lock.ts). A lock older than 10 s belongs to a killed process and is
 * broken; after 15 s of waiting the acceptance fails with an error that names the lock.
 */
function withTrustLock<T>(dir: string, fn: () => T): T {
  const lock = `${dir}.lock`;
  return withLockSync(lock, fn, {
    waitMs: 15_000,
    staleMs: 10_000,
    onTimeout: () =>
      new AvpError('trust-lock', `another avp process holds ${lock}`, {
        fix: `wait for it to finish; if no avp is running, remove the folder ${lock}`,
      }),
  });
}
