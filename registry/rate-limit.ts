import { HttpError } from './errors.ts';
import type { Store } from './store.ts';

/** Writes per token per minute when `--write-limit` is not given. */
export const DEFAULT_WRITES_PER_MINUTE = 120;

/**
 * Per-token limit on writes (publish, yank, owner changes), counted in the database so every instance behind a
 * load balancer shares one count: a fixed one-minute window per token, incremented with one upsert. Over the limit
 * is 429 with `Retry-After` (the seconds left in the window). `perMinute` 0 turns the limit off.
 */
export async function checkWriteRate(
  store: Store,
  tokenId: string,
  perMinute: number,
  now = Date.now(),
): Promise<void> {
  if (perMinute <= 0) return;
  const windowMs = 60_000;
  const start = new Date(Math.floor(now / windowMs) * windowMs).toISOString();
  const [row] = (await store.db`INSERT INTO write_counts (token_id, window_start, count)
    VALUES (${tokenId}, ${start}, ${1})
    ON CONFLICT (token_id, window_start) DO UPDATE SET count = write_counts.count + 1
    RETURNING count`) as Array<{ count: number | string }>;
  const count = Number(row?.count ?? 1);
  // The first write of a window clears that token's older windows: the table holds one row per active token.
  if (count === 1) await store.db`DELETE FROM write_counts WHERE token_id = ${tokenId} AND window_start < ${start}`;
  if (count <= perMinute) return;
  const retry = Math.max(1, Math.ceil((Date.parse(start) + windowMs - now) / 1000));
  throw new HttpError(
    429,
    'rate_limited',
    `this token made more than ${perMinute} writes this minute (the registry's per-token limit); ` +
      `try again in ${retry} s, or ask the registry admin to raise --write-limit`,
    { 'retry-after': String(retry) },
  );
}
