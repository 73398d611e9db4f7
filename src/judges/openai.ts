/**
 * The `openai` backend: chat completions, as served by OpenAI, Ollama, vLLM, LM Studio, OpenRouter and others. The
 * verdict is asked for as structured output (`response_format: json_schema`); a server that rejects that (400) gets
 * the same request without it — the instructions already ask for bare JSON — and is remembered for this process.
 */
import { AvpError, isAvpError } from '../errors.ts';
import { postWithRetry, RetryableError } from './http-retry.ts';
import type { Answer, AskOptions, Transport } from './llm-judge.ts';
import { REPAIR_INSTRUCTION } from './llm-judge.ts';
import type { Prompt } from './prompt.ts';
import { openaiFromStream } from './sse.ts';
import type { TokenUsage } from './types.ts';
import { batchJsonSchema } from './prompt-batch.ts';
import { VERDICT_JSON_SCHEMA } from './verdict-schema.ts';

export const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';

export interface OpenAIOptions {
  model: string;
  apiKey?: string;
  baseUrl?: string;
  stream?: boolean;
}

/** Base URLs whose server rejected `response_format: json_schema` (asked again without it). */
const noSchema = new Set<string>();

/** The chat completions body (exported for tests and the bench). */
export function openaiRequest(
  prompt: Prompt,
  opts: OpenAIOptions,
  withSchema: boolean,
  repair?: AskOptions['repair'],
): Record<string, unknown> {
  const messages: unknown[] = [
    { role: 'system', content: prompt.system },
    { role: 'user', content: prompt.user },
  ];
  if (repair) {
    messages.push({ role: 'assistant', content: repair.previous.trim() || '(empty reply)' });
    messages.push({ role: 'user', content: `${repair.problem}\n${REPAIR_INSTRUCTION}` });
  }
  return {
    model: opts.model,
    messages,
    ...(withSchema
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: prompt.batch
              ? { name: 'avp_verdicts', strict: true, schema: batchJsonSchema(prompt.batch) }
              : { name: 'avp_verdict', strict: true, schema: VERDICT_JSON_SCHEMA },
          },
        }
      : {}),
    ...(opts.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

function usageOf(u: any): TokenUsage | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const out: TokenUsage = { inputTokens: u.prompt_tokens ?? 0, outputTokens: u.completion_tokens ?? 0 };
  const cached = u.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') out.cacheReadTokens = cached;
  return out;
}

function answerFrom(reply: { text: string; headers: Headers }): Answer {
  if ((reply.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const s = openaiFromStream(reply.text);
    const usage = usageOf(s.usage);
    return { text: s.text, ...(s.model ? { model: s.model } : {}), ...(usage ? { usage } : {}) };
  }
  let j: any;
  try {
    j = JSON.parse(reply.text);
  } catch {
    throw new RetryableError('the response body is not complete JSON (connection cut?)');
  }
  const choice = j?.choices?.[0];
  if (!choice) {
    throw new AvpError('judge-unreadable', `the openai API answered without choices: ${reply.text.slice(0, 160)}`, {
      fix: 'check OPENAI_BASE_URL points at a chat completions API (…/v1)',
    });
  }
  const content = choice.message?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((p: any) => p?.text ?? '').join('')
        : '';
  const usage = usageOf(j.usage);
  return { text, ...(j.model ? { model: j.model } : {}), ...(usage ? { usage } : {}) };
}

/** A chat completions transport (one instance per model and endpoint). */
export function openaiTransport(opts: OpenAIOptions): Transport {
  const base = (opts.baseUrl || OPENAI_DEFAULT_URL).replace(/\/+$/, '');
  const post = (prompt: Prompt, ask: AskOptions, withSchema: boolean) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
    return postWithRetry(
      {
        url: `${base}/chat/completions`,
        headers,
        body: openaiRequest(prompt, opts, withSchema, ask.repair),
        signal: ask.signal,
        deadline: ask.deadline,
        backend: 'openai',
      },
      answerFrom,
    );
  };
  return {
    name: 'openai',
    model: opts.model,
    async ask(prompt: Prompt, ask: AskOptions): Promise<Answer> {
      if (noSchema.has(base)) return post(prompt, ask, false);
      try {
        return await post(prompt, ask, true);
      } catch (e) {
        // 400/422 = this server does not take json_schema response formats (older vLLM, some proxies): plain JSON then.
        if (!isAvpError(e) || e.code !== 'judge-request' || !/\((?:400|422) /.test(e.message)) throw e;
        const answer = await post(prompt, ask, false);
        noSchema.add(base);
        return answer;
      }
    },
  };
}

/** Forgets which servers rejected structured output (tests). */
export function resetOpenAIMemory(): void {
  noSchema.clear();
}
