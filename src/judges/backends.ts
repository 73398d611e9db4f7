/**
 * Builds the LLM judge for a detected backend: the transport with its model and endpoint, the shared LLM flow
 * (prompt, verdict, repair, line checks) under the backend's concurrency limit, and the verdict cache around it.
 */
import type { AvpConfig } from '../config-types.ts';
import type { Validator } from '../format/types.ts';
import type { Detection } from './detect.ts';
import type { Judge } from './types.ts';

/** Each backend's model when neither config nor the validator names one: small and fast, a judge answers often. */
export async function defaultModel(backend: string): Promise<string> {
  if (backend === 'openai') return (await import('./openai.ts')).OPENAI_DEFAULT_MODEL;
  if (backend === 'anthropic') return (await import('./anthropic.ts')).ANTHROPIC_DEFAULT_MODEL;
  return (await import('./claude.ts')).CLAUDE_DEFAULT_MODEL;
}

/**
 * The model for a validator: `judge.model` (config, `AVP_MODEL`) is the user's explicit choice and wins; else the
 * validator's `model` hint; else the backend's default.
 */
export async function modelFor(backend: string, validator: Validator | undefined, config: AvpConfig): Promise<string> {
  return config.judge.model || validator?.spec.model || (await defaultModel(backend));
}

const truthy = (v: string | undefined) => !!v && v !== '0' && v.toLowerCase() !== 'false';

/** The judge for `validator` on the detected LLM backend (`claude`, `anthropic` or `openai`), cache included. */
export async function createLlmJudge(found: Detection, validator: Validator, config: AvpConfig, env: NodeJS.ProcessEnv): Promise<Judge> {
  if (found.backend === 'command') throw new Error('createLlmJudge: the command backend is built by select.ts');
  const model = await modelFor(found.backend, validator, config);
  const { llmJudge } = await import('./llm-judge.ts');
  const stream = truthy(env.AVP_JUDGE_STREAM);
  let judge: Judge;
  let identity: string | undefined;
  if (found.backend === 'claude') {
    const { claudeTransport } = await import('./claude.ts');
    judge = llmJudge(claudeTransport({ bin: found.bin!, model, env }, validator), config.judge.concurrency);
  } else if (found.backend === 'anthropic') {
    const { anthropicTransport } = await import('./anthropic.ts');
    identity = env.ANTHROPIC_BASE_URL || undefined;
    const opts = { model, stream, ...(env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY } : {}), ...(identity ? { baseUrl: identity } : {}) };
    judge = llmJudge(anthropicTransport(opts), config.judge.concurrency);
  } else {
    const { openaiTransport } = await import('./openai.ts');
    identity = env.OPENAI_BASE_URL || undefined;
    const opts = { model, stream, ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}), ...(identity ? { baseUrl: identity } : {}) };
    judge = llmJudge(openaiTransport(opts), config.judge.concurrency);
  }
  if (!config.cache.enabled) return judge;
  const { cachingJudge } = await import('./cache.ts');
  return cachingJudge(judge, { model, maxBytes: config.cache.maxBytes, ...(identity ? { identity } : {}) });
}
