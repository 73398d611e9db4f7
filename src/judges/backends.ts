/**
 * Builds the LLM judge for a detected backend: the transport with its model and endpoint, the shared LLM flow
 * (prompt, verdict, repair, line checks) under the backend's concurrency limit, and the verdict cache around it.
 */
import type { AvpConfig } from '../config/types.ts';
import { truthy } from '../config/config.ts';
import type { Validator } from '../validator/types.ts';
import { DEFAULT_MODELS, type Detection, isAgentCliBackend } from './detect.ts';
import type { Transport } from './llm-judge.ts';
import type { Judge } from './types.ts';

/** The backend's default model (see DEFAULT_MODELS). */
export function defaultModel(backend: string): string {
  return DEFAULT_MODELS[backend as keyof typeof DEFAULT_MODELS] ?? DEFAULT_MODELS.claude;
}

/**
 * The model for a validator: `judge.model` (config, `AVP_MODEL`) is the user's explicit choice and wins; else the
 * validator's `model` hint; else the backend's default.
 */
export function modelFor(backend: string, validator: Validator | undefined, config: AvpConfig): string {
  // An agent CLI runs the model its user configured; a validator's hint names another vendor's model as often as not.
  if (isAgentCliBackend(backend)) return config.judge.model ?? '';
  return config.judge.model || validator?.spec.model || defaultModel(backend);
}

/** The transport of a detected backend for `model` (the claude CLI's carries `validator`'s identity). */
export async function buildTransport(
  found: Detection,
  model: string,
  validator: Validator,
  env: NodeJS.ProcessEnv,
): Promise<Transport> {
  const stream = truthy(env.AVP_JUDGE_STREAM);
  if (found.backend === 'claude') {
    const { claudeTransport } = await import('./claude.ts');
    return claudeTransport({ bin: found.bin!, model, env }, validator);
  }
  if (isAgentCliBackend(found.backend)) {
    const { agentCliTransport } = await import('./agent-cli.ts');
    return agentCliTransport({ backend: found.backend, bin: found.bin!, env, ...(model ? { model } : {}) }, validator);
  }
  if (found.backend === 'anthropic') {
    const { anthropicTransport } = await import('./anthropic.ts');
    return anthropicTransport({
      model,
      stream,
      ...(env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY } : {}),
      ...(env.ANTHROPIC_BASE_URL ? { baseUrl: env.ANTHROPIC_BASE_URL } : {}),
    });
  }
  const { openaiTransport } = await import('./openai.ts');
  return openaiTransport({
    model,
    stream,
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
    ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}),
  });
}

/** Builds the uncached judge: the transport, the shared LLM flow (prompt, verdict, repair) and its limit. */
async function buildJudge(
  found: Detection,
  model: string,
  validator: Validator,
  config: AvpConfig,
  env: NodeJS.ProcessEnv,
): Promise<Judge> {
  const { llmJudge } = await import('./llm-judge.ts');
  return llmJudge(await buildTransport(found, model, validator, env), config.judge.concurrency);
}

/**
 * The endpoint, part of the verdict cache key next to the backend and model: another server may run another model
 * under the same name. Batched judging (batch.ts) keys its entries the same way, so both share one cache.
 */
export function cacheJudgeName(found: Detection, env: NodeJS.ProcessEnv): string {
  const identity =
    found.backend === 'anthropic'
      ? env.ANTHROPIC_BASE_URL
      : found.backend === 'openai'
        ? env.OPENAI_BASE_URL
        : undefined;
  return identity ? `${found.backend}:${identity}` : found.backend;
}

/**
 * The judge for `validator` on the detected LLM backend (`claude`, an agent CLI, `anthropic` or `openai`), cache
 * included. The
 * backend modules (prompt building, diff, valibot, ofetch) load only on a cache miss: a hit costs a file read.
 */
export async function createLlmJudge(
  found: Detection,
  validator: Validator,
  config: AvpConfig,
  env: NodeJS.ProcessEnv,
): Promise<Judge> {
  if (found.backend === 'command') throw new Error('createLlmJudge: the command backend is built by select.ts');
  const model = modelFor(found.backend, validator, config);
  if (!config.cache.enabled) return buildJudge(found, model, validator, config, env);
  const lazy: Judge = {
    name: found.backend,
    evaluate: async (req) => (await buildJudge(found, model, validator, config, env)).evaluate(req),
  };
  // An agent CLI's model is its user's configuration: the backend names the verdict's source when avp names no model.
  const identity = isAgentCliBackend(found.backend)
    ? `${found.backend}-cli`
    : cacheJudgeName(found, env).slice(found.backend.length + 1) || undefined;
  const { cachingJudge } = await import('./cache.ts');
  return cachingJudge(lazy, { model, maxBytes: config.cache.maxBytes, env, ...(identity ? { identity } : {}) });
}
