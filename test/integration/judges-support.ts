/** Shared by the judge integration tests: a config, a request runner with a real timeout, a closed port. */
import { createServer } from 'node:net';
import { defaultConfig } from '../../src/config/config.ts';
import type { AvpConfig } from '../../src/config/types.ts';
import type { HookEvent } from '../../src/protocol/event.ts';
import type { Validator } from '../../src/validator/types.ts';
import type { Judge, JudgeResult } from '../../src/judges/types.ts';

export function config(
  over: { backend?: AvpConfig['judge']['backend']; cache?: boolean; model?: string } = {},
): AvpConfig {
  const c = defaultConfig();
  c.judge = { ...c.judge, backend: over.backend ?? 'auto', ...(over.model ? { model: over.model } : {}) };
  c.cache = { ...c.cache, enabled: over.cache ?? false };
  return c;
}

/** Evaluates like the engine does: an AbortSignal that fires after `timeoutMs`. */
export async function evaluate(
  judge: Judge,
  validator: Validator,
  event: HookEvent,
  timeoutMs = 10_000,
): Promise<JudgeResult> {
  const ac = new AbortController();
  const t = setTimeout(() => ac.abort(`timed out after ${timeoutMs / 1000} s (the validator's timeout)`), timeoutMs);
  try {
    return await judge.evaluate({ validator, event, signal: ac.signal, timeoutMs });
  } finally {
    clearTimeout(t);
  }
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
