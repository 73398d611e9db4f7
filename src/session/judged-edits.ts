/**
 * Edits already judged before they were made: on an agent whose after-the-fact event cannot refuse, file tools are
 * judged by the PostToolUse validators at their PreToolUse (`judgePostAtPre`). When that PreToolUse was let through,
 * the agent's after-event for the same result (Cursor's `afterFileEdit`) need not pay for the same validators again.
 *
 * A record is the file's absolute path, a digest of the content the edit produces and the validators (id and content
 * hash) that judged it without blocking. `judged-edits.json`, under the session's lock, the newest MAX_RECORDS kept.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withLock } from '../os/dir-lock.ts';
import { writeAtomic } from './store.ts';

const FILE = 'judged-edits.json';
const MAX_RECORDS = 200;
/** Validators named in one record: more than any project runs on one file, small enough to stay a short read. */
const MAX_KEYS = 100;

interface JudgedEdit {
  path: string;
  digest: string;
  validators: string[];
}

/** The digest a file's content is recorded under (deleted: a fixed marker). */
export function contentDigest(content: string | null): string {
  return new Bun.CryptoHasher('sha256')
    .update(content === null ? '\u0000deleted' : `=${content}`)
    .digest('hex')
    .slice(0, 40);
}

/** A validator as it judged: its id and the hash of its files (a changed validator is a different judge). */
export const judgeKey = (v: { id: string; hash: string }) => `${v.id}@${v.hash}`;

function read(dir: string): JudgedEdit[] {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, FILE), 'utf8'));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (r): r is JudgedEdit =>
        !!r && typeof r.path === 'string' && typeof r.digest === 'string' && Array.isArray(r.validators),
    );
  } catch {
    return [];
  }
}

/** The validators (`judgeKey`) that already judged `path` with this content and let it through. */
export function judgedBefore(dir: string, path: string, digest: string): Set<string> {
  const out = new Set<string>();
  for (const r of read(dir))
    if (r.path === path && r.digest === digest) for (const k of r.validators) if (typeof k === 'string') out.add(k);
  return out;
}

/** Records that `validators` judged `path` with content `digest` and did not block. */
export async function noteJudged(dir: string, path: string, digest: string, validators: string[]): Promise<void> {
  if (!validators.length) return;
  await withLock(dir, 'judged-edits', () => {
    const all = read(dir);
    const same = all.filter((r) => r.path === path && r.digest === digest).flatMap((r) => r.validators);
    const records = all.filter((r) => !(r.path === path && r.digest === digest));
    records.push({ path, digest, validators: [...new Set([...validators, ...same])].slice(0, MAX_KEYS) });
    writeAtomic(join(dir, FILE), JSON.stringify(records.slice(-MAX_RECORDS)));
  });
}
