/** The estimated cost of a run's tokens from the price table (`prices` in config, USD per million tokens). */
import type { ModelPrice } from '../config/types.ts';
import type { TokenUsage } from './types.ts';

/** The price of a model: an exact entry, else the longest entry the name starts with (dated snapshots). */
export function priceOf(prices: Record<string, ModelPrice>, model: string): ModelPrice | undefined {
  if (prices[model]) return prices[model];
  let best: string | undefined;
  for (const key of Object.keys(prices)) {
    if (model.startsWith(key) && /^[-@:._/0-9]/.test(model.slice(key.length)) && key.length > (best?.length ?? 0))
      best = key;
  }
  return best ? prices[best] : undefined;
}

/**
 * USD for one run's tokens. OpenAI counts cached prompt tokens inside `prompt_tokens`; Anthropic reports them apart
 * from `input_tokens`: `judge` says which. A cache price missing from the table falls back to the input price.
 */
export function costOf(price: ModelPrice, tokens: TokenUsage, judge?: string): number {
  const read = tokens.cacheReadTokens ?? 0;
  const write = tokens.cacheWriteTokens ?? 0;
  const plainInput = judge === 'openai' ? Math.max(0, tokens.inputTokens - read) : tokens.inputTokens;
  return (
    (plainInput * price.input +
      tokens.outputTokens * price.output +
      read * (price.cacheRead ?? price.input) +
      write * (price.cacheWrite ?? price.input)) /
    1_000_000
  );
}
