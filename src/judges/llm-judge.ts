/**
 * What every LLM backend shares: build the prompt, ask (within the backend's concurrency limit), read the verdict,
 * ask once more for a bare JSON verdict when the reply is unreadable, then fail closed; check the cited lines against
 * the change; add up token usage. A backend only implements `Transport.ask`.
 */
import { AvpError, isAvpError } from '../errors.ts';
import { limited } from './limiter.ts';
import { buildPrompt, type Prompt, type PromptOptions } from './prompt.ts';
import type { Judge, JudgeRequest, JudgeResult, TokenUsage, Verdict } from './types.ts';
import { parseVerdict, verdictFromValue, verifyLines } from './verdict.ts';

/** What a transport got back: free text, or an already structured value (forced tool use). */
export interface Answer {
  text?: string;
  value?: unknown;
  usage?: TokenUsage;
  /** The model that answered, when the backend says. */
  model?: string;
}

export interface AskOptions {
  signal: AbortSignal;
  /** Epoch ms: no retry starts after it. */
  deadline: number;
  /** Set on the repair request: the unreadable reply, to be answered with a bare JSON verdict. */
  repair?: { previous: string; problem: string };
  /** Directory of the validator (read-only tools may need access to its references). */
  validatorDir?: string;
  projectRoot: string;
}

export interface Transport {
  /** `claude`, `anthropic`, `openai`. */
  readonly name: string;
  readonly model: string;
  /** How this transport wants its prompt built (e.g. with absolute locations for a judge with file tools). */
  readonly promptOptions?: PromptOptions;
  ask(prompt: Prompt, opts: AskOptions): Promise<Answer>;
}

export const REPAIR_INSTRUCTION =
  'Your previous reply could not be read as a verdict (or contradicted itself). Reply only with the JSON verdict object ' +
  '{"passed": true or false, "violations": [...], "summary": "..."} for the change above — "passed" a JSON boolean, ' +
  'false whenever you list a violation; no prose, no code fence.';

/** Two usages added up (cache fields only when either has them). */
export function addUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage | undefined {
  if (!a) return b;
  if (!b) return a;
  const sum = (x?: number, y?: number) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  const out: TokenUsage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  const r = sum(a.cacheReadTokens, b.cacheReadTokens);
  const w = sum(a.cacheWriteTokens, b.cacheWriteTokens);
  if (r !== undefined) out.cacheReadTokens = r;
  if (w !== undefined) out.cacheWriteTokens = w;
  return out;
}

function read(answer: Answer, rule: string): Verdict {
  if (answer.value !== undefined) return verdictFromValue(answer.value, { rule });
  return parseVerdict(answer.text ?? '', { rule });
}

function shown(answer: Answer): string {
  if (answer.value !== undefined) return JSON.stringify(answer.value);
  return answer.text ?? '';
}

/** Wraps a transport as a Judge. `concurrency` bounds the transport's simultaneous requests in this process. */
export function llmJudge(transport: Transport, concurrency: number): Judge {
  return {
    name: transport.name,
    async evaluate(req: JudgeRequest): Promise<JudgeResult> {
      const { validator, event, signal } = req;
      const prompt = buildPrompt(validator, event, transport.promptOptions);
      const base = {
        signal,
        deadline: Date.now() + req.timeoutMs,
        projectRoot: event.projectRoot,
        ...(validator.dir ? { validatorDir: validator.dir } : {}),
      };
      const ask = (repair?: AskOptions['repair']) =>
        limited(transport.name, concurrency, signal, () => transport.ask(prompt, repair ? { ...base, repair } : base));
      const first = await ask();
      let usage = first.usage;
      let model = first.model ?? transport.model;
      let verdict: Verdict;
      try {
        verdict = read(first, validator.id);
      } catch (e) {
        if (!isAvpError(e) || e.code !== 'judge-unreadable') throw e;
        // One bounded repair request to the same backend, then fail closed.
        const second = await ask({ previous: shown(first), problem: e.message });
        usage = addUsage(usage, second.usage);
        model = second.model ?? model;
        try {
          verdict = read(second, validator.id);
        } catch (e2) {
          throw new AvpError(
            'judge-unreadable',
            `the ${transport.name} judge gave no readable verdict, even when asked again (${(e2 as Error).message})`,
            {
              fix: 'use a model that follows instructions better (`judge.model`), or another backend; the validator fails closed meanwhile',
            },
          );
        }
      }
      const result: JudgeResult = { verdict: verifyLines(verdict, event), judge: transport.name, model };
      if (usage) result.usage = usage;
      return result;
    },
  };
}
