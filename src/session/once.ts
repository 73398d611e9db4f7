/**
 * `once: true` validators run once per session. Each claimed validator is one empty file `once/<sha1(id)>` created
 * with `O_EXCL`: creation is atomic, so concurrent hook processes never lose or duplicate a mark, and `claim` lets
 * exactly one of several racing processes win the right to run a once-validator. A run that could not be evaluated
 * (error, timeout) did not happen: its winner `release`s the claim, and the next event runs it again.
 */
import { closeSync, mkdirSync, openSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from './store.ts';

export interface OnceState {
  /** True when the validator already ran in this session (as of when the state was loaded, or marked since). */
  isDone(id: string): boolean;
  /** Marks validators as run. Idempotent and safe under concurrency. */
  markDone(ids: string[]): Promise<void>;
  /** Marks the validators as run and returns those this process marked first (the others ran or run elsewhere). */
  claim(ids: string[]): Promise<string[]>;
  /** Undoes this process's claims of validators whose run errored: they are not done and run again next time. */
  release(ids: string[]): Promise<void>;
}

function keyOf(id: string): string {
  return Bun.SHA1.hash(id, 'hex');
}

/** Creates the mark; true when this call created it. */
function mark(dir: string, id: string): boolean {
  try {
    closeSync(openSync(join(dir, keyOf(id)), 'wx', PRIVATE_FILE));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** The once-state of a session directory; without a session (`dir` undefined) nothing is ever done. */
export function loadOnce(dir: string | undefined): OnceState {
  const done = new Set<string>();
  const onceDir = dir ? join(dir, 'once') : undefined;
  if (onceDir) {
    try {
      for (const name of readdirSync(onceDir)) done.add(name);
    } catch {
      /* nothing done yet */
    }
  }
  const claim = async (ids: string[]): Promise<string[]> => {
    if (!onceDir) return ids;
    mkdirSync(onceDir, { recursive: true, mode: PRIVATE_DIR });
    const won: string[] = [];
    for (const id of ids) {
      if (mark(onceDir, id)) won.push(id);
      done.add(keyOf(id));
    }
    return won;
  };
  const release = async (ids: string[]): Promise<void> => {
    if (!onceDir) return;
    for (const id of ids) {
      try {
        unlinkSync(join(onceDir, keyOf(id)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      done.delete(keyOf(id));
    }
  };
  return {
    isDone: (id) => done.has(keyOf(id)),
    markDone: async (ids) => {
      await claim(ids);
    },
    claim,
    release,
  };
}
