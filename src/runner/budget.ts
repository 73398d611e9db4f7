/**
 * What LLM judging spends, against the budgets in config (`budgets.session`, `budgets.day`: tokens and/or USD).
 *
 * The ledger lives in `$AVP_HOME/spend/`, never in the project: the agent's file tools cannot reset it (writes there
 * are denied by the control-plane guard, trust/guard.ts). It is append-only: one short JSON line per hook call that
 * spent tokens, written with a single O_APPEND write to the day's file (`day-YYYY-MM-DD.jsonl`, local date) and to
 * the session's file (`sessions/<hash>.jsonl`). Parallel hook processes therefore never lose each other's spend; they
 * can only overshoot a limit by what was already in flight when each read the totals (at most one call's requests
 * each). Old files are pruned on write (days after DAY_FILES_KEPT days, sessions after SESSION_DAYS_KEPT days idle).
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AvpConfig, SpendLimit } from '../config/types.ts';
import { avpHome } from '../paths.ts';
import { costOf, priceOf } from '../judges/prices.ts';
import type { TokenUsage } from '../judges/types.ts';
import type { ValidatorRun } from './types.ts';

const DAY_FILES_KEPT = 35;
const SESSION_DAYS_KEPT = 30;

export interface Spend {
  tokens: number;
  usd: number;
  /** Runs whose model has no price: their tokens count, their cost is unknown (not in `usd`). */
  unpriced: number;
}

/** A limit that is reached: which one, and the sentence that says so. */
export interface SpentBudget {
  scope: 'session' | 'day';
  what: 'tokens' | 'usd';
  spent: number;
  limit: number;
  message: string;
}

export function spendDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(avpHome(env), 'spend');
}

/** The local calendar day: a budget "per day" is the user's day, not UTC's. */
export function localDay(when = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${when.getFullYear()}-${p(when.getMonth() + 1)}-${p(when.getDate())}`;
}

export const dayFile = (env: NodeJS.ProcessEnv, when = new Date()) =>
  join(spendDir(env), `day-${localDay(when)}.jsonl`);
export const sessionFile = (env: NodeJS.ProcessEnv, session: string) =>
  join(spendDir(env), 'sessions', `${new Bun.CryptoHasher('sha256').update(session).digest('hex').slice(0, 24)}.jsonl`);

/** Every token the provider processed: OpenAI counts cached prompt tokens inside `inputTokens`, Anthropic apart. */
export function tokensOf(usage: TokenUsage, judge?: string): number {
  const cached = judge === 'openai' ? 0 : (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  return usage.inputTokens + usage.outputTokens + cached;
}

/** Totals of a ledger file; a missing file is zero, a damaged line is skipped (it cannot lower a total). */
export function readSpend(file: string): Spend {
  const total: Spend = { tokens: 0, usd: 0, unpriced: 0 };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return total;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const j = JSON.parse(line) as { t?: unknown; u?: unknown; n?: unknown };
      if (typeof j.t === 'number' && j.t > 0) total.tokens += j.t;
      if (typeof j.u === 'number' && j.u > 0) total.usd += j.u;
      if (typeof j.n === 'number' && j.n > 0) total.unpriced += j.n;
    } catch {
      // a line cut short by a crash: skipped
    }
  }
  return total;
}

const fmt = (what: 'tokens' | 'usd', n: number) =>
  what === 'usd' ? `$${n.toFixed(n < 1 ? 4 : 2)}` : `${Math.round(n).toLocaleString('en-US')} tokens`;

function over(scope: 'session' | 'day', limit: SpendLimit, spend: Spend): SpentBudget | undefined {
  for (const what of ['tokens', 'usd'] as const) {
    const max = limit[what];
    const spent = spend[what];
    if (max !== undefined && spent >= max) {
      const period = scope === 'day' ? 'today' : 'in this session';
      return {
        scope,
        what,
        spent,
        limit: max,
        message: `the LLM budget is spent: ${fmt(what, spent)} ${period} of ${fmt(what, max)} (budgets.${scope}.${what})`,
      };
    }
  }
  return undefined;
}

/** The first budget that is reached for this session and today, if any (reads at most two small files). */
export function spentBudget(
  config: AvpConfig,
  session: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  when = new Date(),
): SpentBudget | undefined {
  const { session: perSession, day } = config.budgets;
  if (Object.keys(day).length) {
    const hit = over('day', day, readSpend(dayFile(env, when)));
    if (hit) return hit;
  }
  if (session && Object.keys(perSession).length)
    return over('session', perSession, readSpend(sessionFile(env, session)));
  return undefined;
}

/** What `runs` spent (judged now, not served from the verdict cache). */
export function spendOf(runs: ValidatorRun[], prices: AvpConfig['prices']): Spend {
  const total: Spend = { tokens: 0, usd: 0, unpriced: 0 };
  for (const r of runs) {
    if (!r.usage || r.cached) continue;
    total.tokens += tokensOf(r.usage, r.judge);
    const price = r.model ? priceOf(prices, r.model) : undefined;
    if (price) total.usd += costOf(price, r.usage, r.judge);
    else total.unpriced++;
  }
  return total;
}

/** Appends what `runs` spent to the day's and the session's ledger; returns the error instead of throwing. */
export function recordSpend(
  runs: ValidatorRun[],
  config: AvpConfig,
  session: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  when = new Date(),
): Error | undefined {
  const spend = spendOf(runs, config.prices);
  if (spend.tokens === 0) return undefined;
  const line = `${JSON.stringify({ ts: when.toISOString(), t: spend.tokens, u: Number(spend.usd.toFixed(8)), ...(spend.unpriced ? { n: spend.unpriced } : {}) })}\n`;
  try {
    mkdirSync(join(spendDir(env), 'sessions'), { recursive: true });
    const day = dayFile(env, when);
    const fresh = !exists(day);
    appendFileSync(day, line);
    if (session) appendFileSync(sessionFile(env, session), line);
    if (fresh) prune(env, when);
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Once a day (the first write of the day): old day files and idle session files go. */
function prune(env: NodeJS.ProcessEnv, when: Date): void {
  const dir = spendDir(env);
  const oldestDay = localDay(new Date(when.getTime() - DAY_FILES_KEPT * 86_400_000));
  const idle = when.getTime() - SESSION_DAYS_KEPT * 86_400_000;
  const remove = (file: string) => {
    try {
      unlinkSync(file);
    } catch {
      // another process pruned it
    }
  };
  try {
    for (const n of readdirSync(dir)) {
      const m = /^day-(\d{4}-\d{2}-\d{2})\.jsonl$/.exec(n);
      if (m && m[1]! < oldestDay) remove(join(dir, n));
    }
    for (const n of readdirSync(join(dir, 'sessions'))) {
      const file = join(dir, 'sessions', n);
      if ((statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < idle) remove(file);
    }
  } catch {
    // pruning is housekeeping: never an error
  }
}
