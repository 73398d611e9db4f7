/**
 * Server-sent events: the Anthropic Messages stream and the OpenAI chunk stream, read from a complete body (judges
 * wait for the whole answer anyway). A stream that stops before its terminal event was cut: RetryableError.
 */
import { RetryableError } from './http-retry.ts';
import type { TokenUsage } from './types.ts';

/** `{event, data}` records of an SSE body. */
export function sseEvents(body: string): Array<{ event: string; data: string }> {
  const out: Array<{ event: string; data: string }> = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) out.push({ event, data: data.join('\n') });
  }
  return out;
}

export interface AnthropicMessage {
  model?: string;
  content: Array<{ type: string; text?: string; name?: string; input?: unknown }>;
  stop_reason?: string | null;
  usage?: Record<string, number | undefined>;
}

/** Rebuilds the Message from a Messages API event stream (text_delta / input_json_delta per block index). */
export function anthropicFromStream(body: string): AnthropicMessage {
  const msg: AnthropicMessage = { content: [] };
  const partial: string[] = [];
  let stopped = false;
  for (const { event, data } of sseEvents(body)) {
    let d: any;
    try {
      d = JSON.parse(data);
    } catch {
      throw new RetryableError(`unreadable stream event ${event}`);
    }
    switch (d.type) {
      case 'message_start':
        msg.model = d.message?.model;
        msg.usage = { ...d.message?.usage };
        break;
      case 'content_block_start':
        msg.content[d.index] = { ...d.content_block };
        partial[d.index] = '';
        break;
      case 'content_block_delta': {
        const block = msg.content[d.index];
        if (!block) break;
        if (d.delta?.type === 'text_delta') block.text = (block.text ?? '') + d.delta.text;
        else if (d.delta?.type === 'input_json_delta') partial[d.index] += d.delta.partial_json ?? '';
        break;
      }
      case 'content_block_stop': {
        const block = msg.content[d.index];
        if (block?.type === 'tool_use') {
          try {
            block.input = partial[d.index] ? JSON.parse(partial[d.index]!) : {};
          } catch {
            block.input = partial[d.index]; // kept as text: the verdict check reports it
          }
        }
        break;
      }
      case 'message_delta':
        msg.stop_reason = d.delta?.stop_reason ?? msg.stop_reason;
        msg.usage = { ...msg.usage, ...d.usage };
        break;
      case 'message_stop':
        stopped = true;
        break;
      case 'error':
        // e.g. overloaded_error in the middle of a stream
        throw new RetryableError(`stream error: ${d.error?.type ?? ''} ${d.error?.message ?? ''}`.trim());
    }
  }
  if (!stopped) throw new RetryableError('the response stream ended before message_stop (connection cut)');
  msg.content = msg.content.filter(Boolean);
  return msg;
}

/** Token usage from Anthropic's usage object. */
export function anthropicUsage(u: Record<string, number | undefined> | undefined): TokenUsage | undefined {
  if (!u) return undefined;
  const out: TokenUsage = { inputTokens: u.input_tokens ?? 0, outputTokens: u.output_tokens ?? 0 };
  if (u.cache_read_input_tokens !== undefined) out.cacheReadTokens = u.cache_read_input_tokens;
  if (u.cache_creation_input_tokens !== undefined) out.cacheWriteTokens = u.cache_creation_input_tokens;
  return out;
}

/** Text and usage from an OpenAI chat completion chunk stream (ends with `data: [DONE]`). */
export function openaiFromStream(body: string): { text: string; model?: string; usage?: any } {
  let text = '';
  let model: string | undefined;
  let usage: any;
  let done = false;
  for (const { data } of sseEvents(body)) {
    if (data.trim() === '[DONE]') {
      done = true;
      continue;
    }
    let d: any;
    try {
      d = JSON.parse(data);
    } catch {
      throw new RetryableError('unreadable stream chunk');
    }
    if (d.error) throw new RetryableError(`stream error: ${d.error.message ?? JSON.stringify(d.error)}`);
    model ??= d.model;
    if (d.usage) usage = d.usage;
    const c = d.choices?.[0]?.delta?.content;
    if (typeof c === 'string') text += c;
  }
  if (!done) throw new RetryableError('the response stream ended before [DONE] (connection cut)');
  return { text, ...(model ? { model } : {}), ...(usage ? { usage } : {}) };
}
