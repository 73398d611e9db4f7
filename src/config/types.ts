import type { Severity } from '../validator/types.ts';

/**
 * Judge backends. `auto` picks claude on PATH → codex, gemini, qwen, droid on PATH → ANTHROPIC_API_KEY →
 * OPENAI_BASE_URL/OPENAI_API_KEY.
 */
export type BackendName =
  'auto' | 'claude' | 'codex' | 'gemini' | 'qwen' | 'droid' | 'anthropic' | 'openai' | 'command';

/** A model's price in US dollars per million tokens (`cacheRead`/`cacheWrite`: prompt-cache reads and writes). */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** A limit on what LLM judging spends: tokens (input + output, cache reads included) and/or US dollars. */
export interface SpendLimit {
  tokens?: number;
  usd?: number;
}

/**
 * `session`: one agent session; `day`: the local calendar day, every project of this user together. `policy` once a
 * limit is reached: `block` (default, fail closed: LLM validators become validator errors) or `warn` (they are not
 * run, and every answer says so).
 */
export interface Budgets {
  session: SpendLimit;
  day: SpendLimit;
  policy: 'block' | 'warn';
}

/**
 * avp's resolved configuration: defaults, then config files (c12: `avp.config.*`, `.avprc`, user `~/.avprc`), then
 * environment variables, then flags. Loaded by `src/config/config.ts`.
 */
export interface AvpConfig {
  /** Kill switch (`AVP_DISABLE=1` or `disabled: true`): avp passes everything. */
  disabled: boolean;
  /** Validator ids/names never run. */
  disabledValidators: string[];
  /** Per-validator severity overrides (name or id → severity). */
  severity: Record<string, Severity>;
  /** Validators run at once (per hook call). */
  concurrency: number;
  /** Whole-call budget in ms: avp answers before this even if validators are still running (they become errors). */
  budgetMs: number;
  /** Stop loop guard: after this many consecutive Stop blocks in one session, pass and tell the user what remains. */
  maxStopBlocks: number;
  /**
   * Off by default (fail closed, as the spec asks: a validator that cannot be evaluated blocks whatever its severity).
   * `true` leaves the spec: a `warn`/`info` validator that cannot be evaluated only warns.
   */
  softValidatorErrors: boolean;
  judge: {
    backend: BackendName;
    /** Default model for LLM backends (each backend has its own default when unset). */
    model?: string;
    /** For `command`: the command line; the prompt arrives on stdin, the verdict is read from stdout. */
    command?: string;
    /** Validator name/id → backend, for per-validator routing. */
    validators: Record<string, BackendName>;
    /** Max concurrent requests per backend. */
    concurrency: number;
    /**
     * Batched judging (default on): the LLM validators matching one event on the same HTTP backend, model and
     * endpoint share one request carrying the change once; each gets its own verdict (docs/judges.md).
     */
    batch: boolean;
    /** Cheap first: script validators run first; LLM validators are skipped when one of them already blocks. */
    skipLlmWhenBlocked: boolean;
  };
  /** Token / cost limits on LLM judging, per session and per day; what happens once one is spent. */
  budgets: Budgets;
  cache: { enabled: boolean; maxBytes: number };
  registry: { url: string };
  /** Bash change tracking: max files fingerprinted per snapshot (bounds the cost on huge repositories). */
  trackMaxFiles: number;
  /**
   * Model → price, for the estimated cost in `avp stats` / `avp report`. A model name matches an entry exactly or by
   * prefix (`claude-haiku-4-5-20251001` → `claude-haiku-4-5`); entries in config files add to the defaults.
   */
  prices: Record<string, ModelPrice>;
  /**
   * The managed policy in force (see config-managed.ts), when a managed file exists: its files, the validators it
   * requires, and what it refused (a kill switch, a disable, a lowered severity), said to the user.
   */
  policy?: { files: string[]; required: string[]; notes: string[]; validatorsDir?: string; forbidDisabling?: boolean };
}
