/**
 * Telling an agent's continuation after a blocked Stop from a new user prompt. Gemini CLI answers a blocked
 * AfterAgent by sending avp's reason back as a new request of the same prompt, and fires BeforeAgent (avp's
 * UserPromptSubmit) for it first, with no prompt id. Taken for a user prompt, it would start a new turn and reset the
 * Stop loop guard, so a Stop validator that keeps failing would never stop blocking. The rule: a prompt that is (or
 * holds) the reason avp gave at the main agent's last blocked Stop of the session is that continuation; it is
 * recognised once (the mark is consumed), and any other prompt is a user's and starts a turn as before.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic } from './store.ts';

const FILE = 'stop-reason.json';
/** Shorter reasons are only taken whole: a short text could sit inside a user's own prompt by chance. */
const MIN_CONTAINED = 40;

/** Remembers the reason of a blocked main-agent Stop, or forgets the last one when the Stop was let through. */
export function noteStopReason(dir: string, reason: string | undefined): void {
  const path = join(dir, FILE);
  const text = reason?.trim();
  if (text) writeAtomic(path, JSON.stringify({ reason: text }));
  else rmSync(path, { force: true });
}

function lastReason(dir: string): string | undefined {
  try {
    const reason = (JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as { reason?: unknown }).reason;
    return typeof reason === 'string' && reason ? reason : undefined;
  } catch {
    return undefined;
  }
}

/** True (once) when `prompt` is the agent sending back the reason of avp's last blocked Stop. */
export function takeStopContinuation(dir: string, prompt: string | undefined): boolean {
  const text = prompt?.trim();
  const reason = text ? lastReason(dir) : undefined;
  if (!text || !reason) return false;
  // Another hook's reason may be joined to avp's in the same continuation: avp's is then found inside it.
  const found = text === reason || (reason.length >= MIN_CONTAINED && text.includes(reason));
  if (found) rmSync(join(dir, FILE), { force: true });
  return found;
}
