/**
 * The `anthropic` backend: the Messages API over HTTP. The verdict is structured output — a forced call of the
 * `report_verdict` tool whose input schema is the verdict — and the stable prefix (tools, instructions, validator text)
 * carries `cache_control` so repeated reviews with the same validator read it from the provider's prompt cache.
 * Non-streaming by default (`AVP_JUDGE_STREAM=1` asks for SSE); either kind of response is read.
 */
import { AvpError } from '../errors.ts';
import { postWithRetry, RetryableError } from './http-retry.ts';
import type { Answer, AskOptions, Transport } from './llm-judge.ts';
import type { Prompt } from './prompt.ts';
import { type AnthropicMessage, anthropicFromStream, anthropicUsage } from './sse.ts';
import { batchJsonSchema } from './prompt-batch.ts';
import { VERDICT_JSON_SCHEMA } from './verdict-schema.ts';

export const ANTHROPIC_DEFAULT_URL = 'https://api.anthropic.com';
const VERDICT_TOOL = 'report_verdict';
/** A batched request's tool: one verdict per validator (prompt-batch.ts). */
const VERDICTS_TOOL = 'report_verdicts';

export interface AnthropicOptions {
  model: string;
  apiKey?: string;
  baseUrl?: string;
  stream?: boolean;
  maxTokens?: number;
}

/** The Messages API request body for a prompt (exported for tests and the bench). */
export function anthropicRequest(
  prompt: Prompt,
  opts: AnthropicOptions,
  repair?: AskOptions['repair'],
): Record<string, unknown> {
  const ephemeral = { type: 'ephemeral' };
  const messages: unknown[] = [
    {
      role: 'user',
      content: [
        // Breakpoint after the validator: tools + system + validator are the cached prefix.
        { type: 'text', text: prompt.validatorText, cache_control: ephemeral },
        { type: 'text', text: prompt.eventText },
      ],
    },
  ];
  if (repair) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: repair.previous.trim() || '(empty reply)' }] });
    messages.push({
      role: 'user',
      content: [
        {
          type: 'text',
          text: `${repair.problem}\nCall the ${VERDICT_TOOL} tool with passed, violations and summary — nothing else.`,
        },
      ],
    });
  }
  const tool = prompt.batch
    ? {
        name: VERDICTS_TOOL,
        description: 'Report the verdict of every validator on the change, one entry each. Call it exactly once.',
        input_schema: batchJsonSchema(prompt.batch),
      }
    : {
        name: VERDICT_TOOL,
        description: 'Report the verdict of the validator on the change. Call it exactly once.',
        input_schema: VERDICT_JSON_SCHEMA,
      };
  return {
    model: opts.model,
    // A batch answers for every validator: room for each one's violations.
    max_tokens: opts.maxTokens ?? (prompt.batch ? Math.min(16_384, 2048 * prompt.batch.length) : 2048),
    system: [{ type: 'text', text: prompt.system, cache_control: ephemeral }],
    tools: [tool],
    tool_choice: { type: 'tool', name: tool.name },
    messages,
    ...(opts.stream ? { stream: true } : {}),
  };
}

/** Text or tool input of a Message: the report_verdict input when present, else the text blocks. */
export function answerOf(msg: AnthropicMessage): Answer {
  const usage = anthropicUsage(msg.usage);
  const base: Answer = { ...(usage ? { usage } : {}), ...(msg.model ? { model: msg.model } : {}) };
  const tool = msg.content.find((b) => b.type === 'tool_use' && (b.name === VERDICT_TOOL || b.name === VERDICTS_TOOL));
  if (tool) return { ...base, value: tool.input };
  const text = msg.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n');
  return { ...base, text };
}

/** A Messages API transport (one instance per model and endpoint). */
export function anthropicTransport(opts: AnthropicOptions): Transport {
  const base = (opts.baseUrl || ANTHROPIC_DEFAULT_URL).replace(/\/+$/, '');
  return {
    name: 'anthropic',
    model: opts.model,
    ask(prompt: Prompt, ask: AskOptions): Promise<Answer> {
      const headers: Record<string, string> = { 'anthropic-version': '2023-06-01', accept: 'application/json' };
      if (opts.apiKey) headers['x-api-key'] = opts.apiKey;
      return postWithRetry(
        {
          url: `${base}/v1/messages`,
          headers,
          body: anthropicRequest(prompt, opts, ask.repair),
          signal: ask.signal,
          deadline: ask.deadline,
          backend: 'anthropic',
        },
        (reply) => {
          const type = reply.headers.get('content-type') ?? '';
          if (type.includes('text/event-stream')) return answerOf(anthropicFromStream(reply.text));
          let msg: AnthropicMessage;
          try {
            msg = JSON.parse(reply.text);
          } catch {
            throw new RetryableError('the response body is not complete JSON (connection cut?)');
          }
          if (!Array.isArray(msg?.content)) {
            throw new AvpError(
              'judge-unreadable',
              `the anthropic API answered without content: ${reply.text.slice(0, 160)}`,
              {
                fix: 'check ANTHROPIC_BASE_URL points at a Messages API',
              },
            );
          }
          return answerOf(msg);
        },
      );
    },
  };
}
