/**
 * Batched judging: the LLM validators that match one event and would each send the same change to the same HTTP
 * backend (anthropic or openai), model and endpoint share one request (prompt-batch.ts) and get one verdict each
 * (verdict-batch.ts). What the batch could not settle — a validator missing from the answer, a malformed, ambiguous or
 * duplicated part — is returned as `alone`: the engine asks that validator again on its own, through the ordinary
 * single flow (with its repair request), so nothing passes silently. The verdict cache is shared with the single flow
 * (same key), read before the request and written per validator after it.
 *
 * The claude CLI (one agent session per validator, with tools and the validator's own environment) and command
 * judges are not batched.
 */
import type { AvpConfig } from '../config/types.ts';
import type { HookEvent } from '../protocol/event.ts';
import type { Validator } from '../validator/types.ts';
import { cacheJudgeName, modelFor } from './backends.ts';
import type { Detection } from './detect.ts';
import type { JudgeResult, TokenUsage } from './types.ts';

/** Most validators in one request: past this a reply grows long and one slow answer holds many verdicts. */
export const MAX_BATCH = 8;

export interface BatchGroup {
  found: Detection;
  model: string;
  validators: Validator[];
}

/** One validator's outcome: a result, or why it must be asked again alone (with its share of the batch's tokens). */
export interface BatchOutcome {
  result?: JudgeResult;
  alone?: string;
  share?: TokenUsage;
}

/**
 * Splits LLM validators into batches (two to MAX_BATCH validators on the same backend, model and endpoint) and the
 * rest, judged one by one: scripts, `batch: false`, the claude CLI and command backends, a backend that cannot be
 * detected (its own run reports why), and whatever ends up alone in its group.
 */
export async function planBatches(
  validators: Validator[],
  config: AvpConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ groups: BatchGroup[]; single: Validator[] }> {
  if (!config.judge.batch) return { groups: [], single: validators };
  const { detectBackend } = await import('./detect.ts');
  const { backendFor } = await import('./select.ts');
  const byKey = new Map<string, BatchGroup>();
  const single: Validator[] = [];
  for (const v of validators) {
    let found: Detection | undefined;
    const backend = backendFor(v, config);
    const command = backend === 'command' || (backend === 'auto' && !!config.judge.command); // as select.ts decides
    if (!v.spec.script && v.spec.batch !== false && !command) {
      try {
        found = detectBackend(config, env, v);
      } catch {
        found = undefined;
      }
    }
    if (!found || (found.backend !== 'anthropic' && found.backend !== 'openai')) {
      single.push(v);
      continue;
    }
    const model = modelFor(found.backend, v, config);
    const key = `${cacheJudgeName(found, env)}\0${model}`;
    const group = byKey.get(key) ?? { found, model, validators: [] };
    group.validators.push(v);
    byKey.set(key, group);
  }
  const groups: BatchGroup[] = [];
  for (const g of byKey.values()) {
    for (let i = 0; i < g.validators.length; i += MAX_BATCH) {
      const chunk = g.validators.slice(i, i + MAX_BATCH);
      if (chunk.length > 1) groups.push({ ...g, validators: chunk });
      else single.push(...chunk);
    }
  }
  return { groups, single };
}

/** `usage` split evenly over `n` validators (the remainder to the first), so per-validator sums stay exact. */
export function splitUsage(usage: TokenUsage | undefined, n: number): TokenUsage[] | undefined {
  if (!usage) return undefined;
  const part = (x: number | undefined, i: number) =>
    x === undefined ? undefined : Math.floor(x / n) + (i === 0 ? x % n : 0);
  return Array.from({ length: n }, (_, i) => {
    const u: TokenUsage = { inputTokens: part(usage.inputTokens, i)!, outputTokens: part(usage.outputTokens, i)! };
    const r = part(usage.cacheReadTokens, i);
    const w = part(usage.cacheWriteTokens, i);
    if (r !== undefined) u.cacheReadTokens = r;
    if (w !== undefined) u.cacheWriteTokens = w;
    return u;
  });
}

/**
 * Judges `group` on `event` in one request. Throws what the transport throws (the engine turns it into validator
 * errors, or asks each validator alone when the whole answer was unreadable).
 */
export async function evaluateBatch(
  group: BatchGroup,
  event: HookEvent,
  config: AvpConfig,
  signal: AbortSignal,
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Map<string, BatchOutcome>> {
  const out = new Map<string, BatchOutcome>();
  const judgeName = cacheJudgeName(group.found, env);
  const cache = config.cache.enabled ? await import('./cache.ts') : undefined;
  const dir = cache?.verdictCacheDir(event.projectRoot, env);
  const keyOf = (v: Validator) => cache!.verdictCacheKey(v.hash, judgeName, group.model, event);
  const pending: Validator[] = [];
  for (const v of group.validators) {
    const hit = cache && dir ? cache.readVerdict(dir, keyOf(v)) : undefined;
    if (hit) {
      out.set(v.id, {
        result: { verdict: hit.verdict, judge: hit.judge, ...(hit.model ? { model: hit.model } : {}), cached: true },
      });
    } else pending.push(v);
  }
  // Nothing left to share a request: the single flow asks the one that is left.
  if (pending.length < 2) {
    for (const v of pending) out.set(v.id, { alone: '' });
    return out;
  }
  const [{ buildTransport }, { buildBatchPrompt }, { limited }, { readBatch }, { verifyLines }] = await Promise.all([
    import('./backends.ts'),
    import('./prompt-batch.ts'),
    import('./limiter.ts'),
    import('./verdict-batch.ts'),
    import('./verdict.ts'),
  ]);
  const transport = await buildTransport(group.found, group.model, pending[0]!, env);
  const prompt = buildBatchPrompt(pending, event, transport.promptOptions);
  const ask = { signal, deadline: Date.now() + timeoutMs, projectRoot: event.projectRoot };
  const answer = await limited(transport.name, config.judge.concurrency, signal, () => transport.ask(prompt, ask));
  const parts = readBatch(answer, prompt.ids);
  const shares = splitUsage(answer.usage, pending.length);
  for (const [i, v] of pending.entries()) {
    const part = parts.get(v.id)!;
    const share = shares?.[i];
    if (!part.verdict) {
      out.set(v.id, { alone: part.problem, ...(share ? { share } : {}) });
      continue;
    }
    const result: JudgeResult = {
      verdict: verifyLines(part.verdict, event),
      judge: transport.name,
      model: answer.model ?? transport.model,
      ...(share ? { usage: share } : {}),
    };
    out.set(v.id, { result });
    if (cache && dir) {
      try {
        cache.writeVerdict(
          dir,
          keyOf(v),
          { judge: result.judge, model: result.model, verdict: result.verdict },
          config.cache.maxBytes,
        );
      } catch {
        // A read-only or full disk must not turn a verdict into an error: the cache is an optimisation.
      }
    }
  }
  return out;
}
