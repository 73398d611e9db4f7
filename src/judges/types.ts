import type { HookEvent } from '../protocol/event.ts';
import type { Validator } from '../validator/types.ts';

/** An AVP violation, plus `message` (what is wrong) which avp's reports show when a judge gives it. */
export interface Violation {
  rule: string;
  file?: string;
  line?: number;
  snippet?: string;
  suggestion?: string;
  message?: string;
  /** Optional graded severity (phase reviews map it to their `severity`; hook mode ignores it). */
  severity?: 'low' | 'medium' | 'high' | 'critical';
  /** Set by avp when the line does not exist in the change (the judge's claim is shown, not trusted). */
  lineUnverified?: boolean;
}

/** The AVP validator response. */
export interface Verdict {
  passed: boolean;
  violations: Violation[];
  summary: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

export interface JudgeResult {
  verdict: Verdict;
  /** `script`, `command`, `claude`, `anthropic`, `openai`. */
  judge: string;
  model?: string;
  usage?: TokenUsage;
  cached?: boolean;
}

export interface JudgeRequest {
  validator: Validator;
  event: HookEvent;
  /**
   * Aborted on the validator's timeout or the call's budget: judges stop their work (kill process groups, abort HTTP).
   */
  signal: AbortSignal;
  /** Milliseconds left for this validator. */
  timeoutMs: number;
}

/**
 * A judge evaluates one validator against one event. It returns a validated verdict or throws `AvpError` (code
 * `judge-*`), which the engine reports as a validator error — never as a pass.
 */
export interface Judge {
  readonly name: string;
  evaluate(request: JudgeRequest): Promise<JudgeResult>;
}
