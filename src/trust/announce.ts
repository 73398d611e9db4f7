/**
 * Acceptances are never silent: every session of a project is told once of each acceptance made after the session
 * began (the project's and the user's acceptance logs), and of a record that no longer matches its logged acceptance.
 * An agent that found a way to run `avp accept` (or to edit the record) still has the user hear of it, in the same
 * session, at the next hook call.
 *
 * Per session, `$AVP_HOME/trust/projects/<project>/sessions/<sha of the session id>.json` keeps how far each log was
 * told and which unmatched records were. Hook path cost: two `stat`s of the logs and one small file read.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../os/atomic-write.ts';
import { entriesBetween, logPath, logSize, type AcceptanceEntry } from './acceptance-log.ts';
import { recordTampered } from './record-check.ts';
import type { ScopeState } from './state.ts';
import { toldFileName } from './told-name.ts';

interface Told {
  project: number;
  user: number;
  /** Records (their SHA-256) this session was told do not match the log. */
  unmatched: string[];
}

const KEEP_DAYS = 30;

function sessionFile(projectDir: string, sessionId: string | undefined): string {
  return join(projectDir, 'sessions', toldFileName(sessionId));
}

function readTold(path: string): Told | undefined {
  try {
    const t = JSON.parse(readFileSync(path, 'utf8')) as Told;
    return typeof t.project === 'number' && typeof t.user === 'number'
      ? { ...t, unmatched: Array.isArray(t.unmatched) ? t.unmatched : [] }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Removes session files not touched for a month (run when a session is first seen, not on every call). */
function prune(dir: string): void {
  const old = Date.now() - KEEP_DAYS * 86_400_000;
  try {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).mtimeMs < old) rmSync(path, { force: true });
    }
  } catch {
    // best effort
  }
}

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

function describeEntry(e: AcceptanceEntry): string {
  const what = e.changes.length
    ? e.changes
        .slice(0, 6)
        .map((c) => `${c.change} ${c.key}`)
        .join(', ') + (e.changes.length > 6 ? ` and ${e.changes.length - 6} more` : '')
    : 'nothing new (recorded again)';
  const where = e.scope === 'user' ? "your user folder's avp files" : `avp files of ${e.base}`;
  const marker = e.origin.marker ? ` — an agent's marker was seen: ${e.origin.marker}` : '';
  return `${when(e.at)}, \`${e.by}\` accepted ${where}: ${what}${marker}`;
}

/**
 * What this session has not yet been told: new acceptances (both scopes) and records that do not match the log.
 * Writes the session's file when there was something to tell (or the session is new).
 */
export function acceptanceNews(
  project: ScopeState,
  user: ScopeState,
  sessionId: string | undefined,
  /** Each record's check (`recordTampered`), when the caller already made it. */
  tampered?: { project?: string; user?: string },
): string | undefined {
  const path = sessionFile(project.dir, sessionId);
  const sizes = { project: logSize(project.dir), user: logSize(user.dir) };
  const lines: string[] = [];
  const told = readTold(path);
  const next: Told = { ...sizes, unmatched: told?.unmatched ?? [] };
  if (told) {
    for (const [scope, state] of [['project', project] as const, ['user', user] as const]) {
      const from = told[scope];
      if (sizes[scope] < from) {
        lines.push(`the acceptance log ${logPath(state.dir)} was cut short or replaced outside avp`);
      } else {
        lines.push(...entriesBetween(state.dir, from, sizes[scope]).map(describeEntry));
      }
    }
  }
  for (const state of [project, user]) {
    const why = tampered ? tampered[state.scope] : recordTampered(state);
    const sha = state.record?.sha;
    if (!why || !sha || next.unmatched.includes(sha)) continue;
    next.unmatched = [...next.unmatched.slice(-20), sha];
    const whose = state.scope === 'project' ? state.base : 'your user folder';
    lines.push(
      `the accepted record of ${whose} (${join(state.dir, 'accepted.json')}) was changed outside avp: ${why}. ` +
        'Review every file with `avp accept --dry-run` and accept them with `avp accept` in your own terminal',
    );
  }
  if (told && !lines.length) return undefined;
  try {
    mkdirSync(join(project.dir, 'sessions'), { recursive: true, mode: 0o700 });
    if (!told) prune(join(project.dir, 'sessions'));
    // Replaced whole, never rewritten in place: the hook shortcut maps it into memory to read it.
    writeFileAtomic(path, JSON.stringify(next), { mode: 0o600 });
  } catch {
    // told again next call rather than never
  }
  if (!lines.length) return undefined;
  return `avp: ${lines.join('.\navp: ')}. If this was not you, undo the change and run \`avp accept\` yourself.`;
}
