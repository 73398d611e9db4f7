/**
 * The hook memo: what the accepted-state check and discovery concluded at the last call where nothing was pending,
 * kept with the stat of every file and folder they looked at (`Listing.seen`). A call that finds every one of those
 * stats unchanged reaches the same conclusion without walking the validators folders, comparing each control file
 * with the record or reading the parse cache: one read of this file and one `stat` per path. Any difference — a file
 * edited, added or removed in a folder that was listed, a record or acceptance log changed — and the call takes the
 * full path, which writes the memo again once it again concludes that nothing is pending.
 *
 * It lives beside the parse cache in `$AVP_HOME/cache`, outside the project, and is trusted like it (and like
 * `verified.json`): arbitrary code running as the user could plant one; docs/accepted-state.md says so.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../os/atomic-write.ts';
import { avpHome } from '../paths.ts';
import { VERSION } from '../version.ts';
import { RACY_MS } from '../validator/cache.ts';
import { liveListing, seenPrint, type Listing } from '../validator/listing.ts';
import type { Discovery } from '../validator/types.ts';
import { userEnvFiles, userHookFiles, userOwnedHookFiles, userRcPath } from './control-files.ts';

/** Bumped when the memo's shape or what it stands for changes (the avp version is checked too). */
const FORMAT = 2;

/** One scope's record as the memo's conclusion needs it (acceptance news reads the record's hash). */
export interface MemoScope {
  dir: string;
  sha: string;
}

interface MemoFile {
  format: number;
  version: string;
  /** What the call's paths depend on (memoKey): a memo of another project, home or environment is not this one. */
  key: string;
  /** Every path looked at, with its fingerprint (`seenPrint`). */
  seen: [string, string][];
  project: MemoScope;
  user: MemoScope;
  discovery: Discovery;
}

/** The part of a memo a call uses when it holds. */
export type HookMemo = Pick<MemoFile, 'project' | 'user' | 'discovery' | 'seen'>;

/**
 * The memo's key: the project root and every path of the user's control files, which the environment decides
 * (`HOME`, `XDG_CONFIG_HOME`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `COPILOT_HOME`, `AVP_HOME`).
 */
function memoKey(projectRoot: string, env: NodeJS.ProcessEnv): string {
  const paths = [userHookFiles(env), userOwnedHookFiles(env), userEnvFiles(env)].flat().map((f) => f.path);
  const parts = [VERSION, projectRoot, avpHome(env), userRcPath(env), ...paths];
  return Bun.SHA256.hash(parts.join('\0'), 'hex');
}

function memoPath(env: NodeJS.ProcessEnv, key: string): string {
  return join(avpHome(env), 'cache', 'hook', `${key.slice(0, 16)}.json`);
}

/** The memo for this call, opened: `held` when every path it depends on is as it was. */
export function openMemo(projectRoot: string, env: NodeJS.ProcessEnv): { key: string; held?: HookMemo } {
  const key = memoKey(projectRoot, env);
  let memo: MemoFile;
  try {
    memo = JSON.parse(readFileSync(memoPath(env, key), 'utf8')) as MemoFile;
  } catch {
    return { key };
  }
  if (memo?.format !== FORMAT || memo.version !== VERSION || memo.key !== key || !Array.isArray(memo.seen))
    return { key };
  for (const [path, print] of memo.seen) if (seenPrint(liveListing.stat(path)) !== print) return { key };
  return { key, held: { project: memo.project, user: memo.user, discovery: memo.discovery, seen: memo.seen } };
}

/**
 * Writes the memo of a call that concluded nothing is pending, unless something it saw changed too recently to tell
 * from a change made in the same timestamp tick (the parse cache's racy rule). `records`: each scope's record file
 * and acceptance log, read outside the listing. Failures are ignored: only speed is lost. Returns what the memo
 * recorded as seen, when it was written.
 */
export function writeMemo(
  env: NodeJS.ProcessEnv,
  key: string,
  listing: Listing,
  records: string[],
  scopes: { project: MemoScope; user: MemoScope },
  discovery: Discovery,
): [string, string][] | undefined {
  const stats = listing.seen?.();
  if (!stats) return undefined;
  for (const path of records) stats.set(path, liveListing.stat(path));
  const racyAfter = Date.now() - RACY_MS;
  const seen: [string, string][] = [];
  for (const [path, s] of stats) {
    if (s && s !== 'error' && Math.max(s.mtimeMs, s.ctimeMs) > racyAfter) return undefined;
    seen.push([path, seenPrint(s)]);
  }
  const memo: MemoFile = { format: FORMAT, version: VERSION, key, seen, ...scopes, discovery };
  try {
    const path = memoPath(env, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, JSON.stringify(memo));
    return seen;
  } catch {
    // a read-only home or a full disk: the next call takes the full path again
    return undefined;
  }
}
