/**
 * Per-backend concurrency limits (`judge.concurrency`): a hook call may match many validators, and API rate limits or
 * a laptop's CPU (one `claude` process each) should not see them all at once. In-process, FIFO, abortable.
 */
import { AvpError } from '../errors.ts';

interface Slot {
  active: number;
  queue: Array<() => void>;
}

const slots = new Map<string, Slot>();

/** Runs `fn` when fewer than `max` calls of `backend` are running; gives up waiting when `signal` aborts. */
export async function limited<T>(backend: string, max: number, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  let slot = slots.get(backend);
  if (!slot) slots.set(backend, (slot = { active: 0, queue: [] }));
  const s = slot;
  if (s.active >= Math.max(1, max)) {
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = s.queue.indexOf(go);
        if (i >= 0) s.queue.splice(i, 1);
        reject(
          new AvpError(
            'judge-timeout',
            `timed out waiting for a free ${backend} judge slot (judge.concurrency = ${max})`,
            {
              fix: "raise `judge.concurrency`, or the validators' `timeout`",
            },
          ),
        );
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      s.queue.push(go);
    });
    // the releasing call handed its slot over: `active` already counts this one
  } else s.active++;
  try {
    return await fn();
  } finally {
    const next = s.queue.shift();
    if (next) next();
    else s.active--;
  }
}
