/**
 * The verdict cache: the same validator (content hash) + judge + model + change → the stored verdict, no LLM call.
 * Entries are small JSON files under `<projectRoot>/.avp/cache/verdicts/`, written atomically (temp file + rename, so
 * concurrent hook processes never read half a file), bounded in total size (least recently used evicted first), and
 * ignored (then removed) when unreadable. Only verdicts are stored, never errors: a timeout is retried next time.
 *
 * The lookup is on the hook path: node:fs and Bun's sha256 only, no valibot, no prompt building.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { HookEvent } from '../protocol/event.ts';
import { avpHome } from '../paths.ts';
import type { Judge, JudgeRequest, JudgeResult, Verdict } from './types.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';

/** Bump when the prompt or verdict reading changes meaning: old entries then simply stop matching. */
const CACHE_VERSION = 'avp-verdict-1';

/**
 * `$AVP_HOME/cache/verdicts/<hash of the project root>`: outside the project, so an agent cannot plant a passing
 * verdict for the change it is about to make.
 */
export function verdictCacheDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha256').update(projectRoot).digest('hex').slice(0, 16);
  return join(avpHome(env), 'cache', 'verdicts', key);
}

/**
 * Everything of the event a judge's prompt can show (see prompt.ts `eventContext`): event, tool, matcher value, the
 * tool input, Bash output, prompt/error/message fields, and each file's path, kind, before/after content and diff.
 */
export function changeFingerprint(event: HookEvent): string {
  const resp = event.toolResponse as Record<string, unknown> | undefined;
  const h = new Bun.CryptoHasher('sha256');
  const put = (label: string, value: unknown) => {
    if (value === undefined) return;
    const s = typeof value === 'string' ? value : JSON.stringify(value);
    h.update(`${label}\0${s.length}\0${s}\0`);
  };
  put('event', event.event);
  put('tool', event.tool);
  put('matcher', event.matcherValue);
  put('input', event.toolInput);
  if (resp && typeof resp === 'object') {
    put('stdout', resp.stdout);
    put('stderr', resp.stderr);
  }
  // The neutral fields: each agent names them differently in its input (Gemini's last message is `prompt_response`).
  put('prompt', event.prompt);
  put('error', event.error);
  put('message', event.message);
  put('last_assistant_message', event.lastMessage);
  for (const f of event.files) {
    put('file', `${f.relPath}\0${f.kind}\0${f.inProject}`);
    put('before', f.before === null ? '\u0000null' : f.before);
    put('after', f.after === null ? '\u0000null' : f.after);
    put('diff', f.diff);
  }
  return h.digest('hex');
}

/** The cache key of one evaluation. */
export function verdictCacheKey(validatorHash: string, judge: string, model: string, event: HookEvent): string {
  return new Bun.CryptoHasher('sha256')
    .update(`${CACHE_VERSION}\0${validatorHash}\0${judge}\0${model}\0${changeFingerprint(event)}`)
    .digest('hex');
}

interface Entry {
  v: string;
  judge: string;
  model?: string;
  verdict: Verdict;
  createdAt: string;
}

function isVerdict(x: any): x is Verdict {
  return x && typeof x.passed === 'boolean' && Array.isArray(x.violations) && typeof x.summary === 'string';
}

/** The stored result for `key`, or undefined (missing, corrupt — then removed — or from another cache version). */
export function readVerdict(dir: string, key: string): Entry | undefined {
  const file = join(dir, `${key}.json`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const entry = JSON.parse(text) as Entry;
    if (entry.v !== CACHE_VERSION || !isVerdict(entry.verdict)) throw new Error('not an entry');
    try {
      const now = new Date();
      utimesSync(file, now, now); // recently used: evicted last
    } catch {
      // evicted by another process meanwhile: the entry read is still good
    }
    return entry;
  } catch {
    try {
      unlinkSync(file);
    } catch {
      // another process removed it
    }
    return undefined;
  }
}

/** Stores an entry atomically, then keeps the directory under `maxBytes` (oldest entries go first). */
export function writeVerdict(dir: string, key: string, entry: Omit<Entry, 'v' | 'createdAt'>, maxBytes: number): void {
  mkdirSync(dir, { recursive: true });
  const data = JSON.stringify({ v: CACHE_VERSION, createdAt: new Date().toISOString(), ...entry });
  writeFileAtomic(join(dir, `${key}.json`), data, { hidden: true });
  evict(dir, maxBytes);
}

/** Removes the least recently used entries until the total is at most 90% of `maxBytes`. */
export function evict(dir: string, maxBytes: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const files: Array<{ path: string; size: number; mtime: number }> = [];
  let total = 0;
  for (const n of names) {
    if (n.endsWith('.tmp')) {
      // left by a process killed between write and rename
      try {
        if (Date.now() - statSync(join(dir, n)).mtimeMs > 10 * 60_000) unlinkSync(join(dir, n));
      } catch {
        // gone already
      }
      continue;
    }
    if (!n.endsWith('.json')) continue;
    try {
      const st = statSync(join(dir, n));
      files.push({ path: join(dir, n), size: st.size, mtime: st.mtimeMs });
      total += st.size;
    } catch {
      // removed meanwhile
    }
  }
  if (total <= maxBytes) return;
  files.sort((a, b) => a.mtime - b.mtime);
  const target = Math.floor(maxBytes * 0.9);
  for (const f of files) {
    if (total <= target) break;
    try {
      unlinkSync(f.path);
    } catch {
      // another process evicted it
    }
    total -= f.size;
  }
}

/**
 * Wraps a judge with the verdict cache. `model` and `identity` (e.g. the command line of a `command` judge) are part
 * of the key, so switching models or commands never reuses another's verdict.
 */
export function cachingJudge(
  inner: Judge,
  opts: { model: string; identity?: string; maxBytes: number; env?: NodeJS.ProcessEnv },
): Judge {
  return {
    name: inner.name,
    async evaluate(req: JudgeRequest): Promise<JudgeResult> {
      const dir = verdictCacheDir(req.event.projectRoot, opts.env);
      const key = verdictCacheKey(
        req.validator.hash,
        `${inner.name}${opts.identity ? `:${opts.identity}` : ''}`,
        opts.model,
        req.event,
      );
      const hit = readVerdict(dir, key);
      if (hit)
        return { verdict: hit.verdict, judge: hit.judge, ...(hit.model ? { model: hit.model } : {}), cached: true };
      const result = await inner.evaluate(req);
      try {
        writeVerdict(
          dir,
          key,
          { judge: result.judge, ...(result.model ? { model: result.model } : {}), verdict: result.verdict },
          opts.maxBytes,
        );
      } catch {
        // A read-only or full disk must not turn a verdict into an error: the cache is an optimisation.
      }
      return result;
    },
  };
}
