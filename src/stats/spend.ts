/**
 * `avp stats`' budget lines: what LLM judging spent today (the ledger in `$AVP_HOME/spend/`, every project of this
 * user) against `budgets.day`, the per-session budget and how many of today's sessions reached it, and the policy.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AvpConfig, Budgets, SpendLimit } from '../config/types.ts';
import { dayFile, localDay, readSpend, type Spend, spendDir } from '../runner/budget.ts';

export interface SpendSummary {
  day: string;
  today: Spend;
  budgets: Budgets;
  /** Sessions with spend today, and how many of them reached `budgets.session`. */
  sessionsToday: number;
  sessionsAtLimit: number;
}

const reached = (limit: SpendLimit, s: Spend) =>
  (limit.tokens !== undefined && s.tokens >= limit.tokens) || (limit.usd !== undefined && s.usd >= limit.usd);

export function spendSummary(config: AvpConfig, env: NodeJS.ProcessEnv = process.env, when = new Date()): SpendSummary {
  const today = readSpend(dayFile(env, when));
  const midnight = new Date(when);
  midnight.setHours(0, 0, 0, 0);
  let sessionsToday = 0;
  let sessionsAtLimit = 0;
  const dir = join(spendDir(env), 'sessions');
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // nothing spent yet
  }
  for (const n of names) {
    const file = join(dir, n);
    if ((statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) < midnight.getTime()) continue;
    sessionsToday++;
    if (Object.keys(config.budgets.session).length && reached(config.budgets.session, readSpend(file)))
      sessionsAtLimit++;
  }
  return { day: localDay(when), today, budgets: config.budgets, sessionsToday, sessionsAtLimit };
}

const tokens = (n: number) => `${Math.round(n).toLocaleString('en-US')} tokens`;
const usd = (n: number) => `$${n.toFixed(n < 1 ? 4 : 2)}`;
const limitText = (l: SpendLimit) =>
  [l.tokens !== undefined ? tokens(l.tokens) : '', l.usd !== undefined ? usd(l.usd) : ''].filter(Boolean).join(' / ');

/** The budget lines under the stats table. */
export function formatSpend(s: SpendSummary): string {
  const { budgets } = s;
  const lines = [
    '',
    `LLM spend (all projects, ${s.day}): ${tokens(s.today.tokens)} today, ${usd(s.today.usd)}${s.today.unpriced ? ` (+${s.today.unpriced} run(s) of models without a price)` : ''}`,
  ];
  const day = Object.keys(budgets.day).length ? limitText(budgets.day) : '';
  const session = Object.keys(budgets.session).length ? limitText(budgets.session) : '';
  if (!day && !session) {
    lines.push('budget: none set ("budgets" in avp.config.json: session/day tokens or usd)');
    return `${lines.join('\n')}\n`;
  }
  if (day) lines.push(`budget per day: ${day}${reached(budgets.day, s.today) ? ' — SPENT' : ''}`);
  if (session)
    lines.push(`budget per session: ${session}; sessions today: ${s.sessionsToday}, ${s.sessionsAtLimit} reached it`);
  lines.push(
    `when spent: ${budgets.policy === 'warn' ? 'warn (LLM validators are not run, and every answer says so)' : 'block (LLM validators fail closed)'}`,
  );
  return `${lines.join('\n')}\n`;
}
