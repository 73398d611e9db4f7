/**
 * The hook-call counter of a project as tests read it, oldest first: the days' files (`.avp/logs/calls-*.jsonl`) and
 * the calls the hook shortcut counted that no full-path call folded in yet (`.avp/logs/pending-calls/`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CountedCall {
  ts: string;
  event: string;
  call: string;
}

export function countedCalls(projectRoot: string): CountedCall[] {
  const logs = join(projectRoot, '.avp', 'logs');
  if (!existsSync(logs)) return [];
  const pending = join(logs, 'pending-calls');
  const texts = [
    ...readdirSync(logs)
      .filter((f) => f.startsWith('calls-'))
      .map((f) => readFileSync(join(logs, f), 'utf8')),
    ...(existsSync(pending) ? readdirSync(pending).map((f) => readFileSync(join(pending, f), 'utf8')) : []),
  ];
  return texts
    .flatMap((text) => text.trim().split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CountedCall)
    .sort((a, b) => a.ts.localeCompare(b.ts));
}

/** The calls the shortcut counted that wait in `.avp/logs/pending-calls/` for a full-path call to fold them in. */
export function pendingCalls(projectRoot: string): string[] {
  const pending = join(projectRoot, '.avp', 'logs', 'pending-calls');
  return existsSync(pending) ? readdirSync(pending) : [];
}
