import { VERSION } from '../src/version.ts';
import { json } from './errors.ts';
import type { Ctx } from './server.ts';

/** Each check gets this long: a load balancer's probe must get an answer even when a dependency hangs. */
const CHECK_MS = 3000;

async function probe(check: () => Promise<unknown>): Promise<{ status: 'ok' } | { status: 'error'; error: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_MS} ms`)), CHECK_MS);
      }),
    ]);
    return { status: 'ok' };
  } catch (e) {
    // The message names the failure without credentials (Bun.SQL and the S3 client do not echo secrets).
    return { status: 'error', error: (e instanceof Error ? e.message : String(e)).slice(0, 300) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /api/health`: the database and the archive storage, each asked for real. 200 `status: "ok"` when both answer,
 * else 503 `status: "degraded"` naming what failed — a load balancer takes the instance out of rotation.
 */
export async function health(ctx: Ctx): Promise<Response> {
  const [database, storage] = await Promise.all([
    probe(() => ctx.store.db`SELECT 1 AS ok`),
    probe(() => ctx.archives.check()),
  ]);
  const ok = database.status === 'ok' && storage.status === 'ok';
  return json(
    {
      status: ok ? 'ok' : 'degraded',
      version: VERSION,
      engine: ctx.store.engine,
      database,
      storage: { kind: ctx.archives.kind, ...storage },
    },
    ok ? 200 : 503,
  );
}
