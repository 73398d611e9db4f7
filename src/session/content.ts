/**
 * Reading file contents for before/after: bounded in size and text only (validators judge source, not binaries),
 * and "last seen" records that let a later Bash change know what a file held before.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileChange } from '../protocol/event.ts';
import { diffTexts } from '../file-changes/diff.ts';
import { MAX_BLOB_BYTES, PRIVATE_DIR, getBlob, putBlob, writeAtomic } from './store.ts';

/** A file's identity for change detection: size and modification time (ms with sub-ms fraction ≈ ns on Linux). */
export interface Fingerprint {
  size: number;
  mtime: number;
}

export function sameFingerprint(a: Fingerprint | undefined, b: Fingerprint | undefined): boolean {
  return !!a && !!b && a.size === b.size && a.mtime === b.mtime;
}

export function fingerprintOf(path: string): Fingerprint | undefined {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st?.isFile()) return undefined;
    return { size: st.size, mtime: st.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * The file's text: `null` when it does not exist, undefined when it is binary (a NUL byte in the first 8 KiB), too
 * big, or unreadable (a directory, no permission).
 */
export function readText(path: string, maxBytes = MAX_BLOB_BYTES): string | null | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR'
      ? null
      : undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n <= 0) break;
      off += n;
    }
    return isBinary(buf.subarray(0, off)) ? undefined : buf.subarray(0, off).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The change of one file between two contents (`null` = absent, undefined = unknown: binary, too big or unread), with a
 * unified diff when both are known. Undefined when there is none: the same text before and after, or absent both times
 * (created and removed again).
 */
export async function changeBetween(
  path: string,
  relPath: string,
  inProject: boolean,
  before: string | null | undefined,
  after: string | null | undefined,
): Promise<FileChange | undefined> {
  if (before === null && after === null) return undefined;
  if (typeof before === 'string' && before === after) return undefined;
  const kind: FileChange['kind'] = before === null ? 'create' : after === null ? 'delete' : 'update';
  const change: FileChange = { path, relPath, inProject, kind };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  if (before !== undefined && after !== undefined) change.diff = await diffTexts(relPath, before, after);
  return change;
}

export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** What avp last knew a file to hold: its fingerprint at that moment and the content's blob. */
interface Seen extends Fingerprint {
  blob: string;
}

function seenPath(dir: string, path: string): string {
  return join(dir, 'seen', Bun.SHA1.hash(path, 'hex'));
}

/** Remembers that `path`, with fingerprint `fp`, held `text` (one small file per path, replaced atomically). */
export function rememberContent(
  dir: string,
  path: string,
  text: string,
  fp: Fingerprint | undefined = fingerprintOf(path),
): void {
  if (!fp) return;
  const blob = putBlob(dir, text);
  if (!blob) return;
  mkdirSync(join(dir, 'seen'), { recursive: true, mode: PRIVATE_DIR });
  writeAtomic(seenPath(dir, path), JSON.stringify({ size: fp.size, mtime: fp.mtime, blob } satisfies Seen));
}

/** True when avp already holds the content of `path` as it is at fingerprint `fp`. */
export function knowsContent(dir: string, path: string, fp: Fingerprint): boolean {
  return recalled(dir, path, fp) !== undefined;
}

function recalled(dir: string, path: string, fp: Fingerprint): Seen | undefined {
  try {
    const seen = JSON.parse(readFileSync(seenPath(dir, path), 'utf8')) as Seen;
    return sameFingerprint(seen, fp) ? seen : undefined;
  } catch {
    return undefined;
  }
}

/** The blob hash of the content `path` held at fingerprint `fp`, when avp saw it then. */
export function recallBlob(dir: string, path: string, fp: Fingerprint): string | undefined {
  const seen = recalled(dir, path, fp);
  return seen && getBlob(dir, seen.blob) !== undefined ? seen.blob : undefined;
}
