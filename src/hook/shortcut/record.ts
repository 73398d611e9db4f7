/**
 * Writes the hook shortcut's record (shortcut-file.ts) after a call of the full path whose answer another call of the
 * same event, tool and working folder may get without it: what the conclusion stood on (the hook memo held or was
 * written), that nothing in it depended on the file the call named or on session state, and the answer itself.
 * A record whose basis is unchanged gains the call; any other basis starts a new record. Failures are ignored:
 * only speed is lost.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../os/atomic-write.ts';
import { seenPrint, type StatResult } from '../../os/stat-print.ts';
import { RACY_MS } from '../../validator/cache.ts';
import { avpHome } from '../../paths.ts';
import { stateRoot } from '../../session/store.ts';
import { pendingDirOf } from '../../stats/call-line.ts';
import { logSize } from '../../trust/acceptance-log.ts';
import { validatorMatches } from '../../validator/match.ts';
import { VERSION } from '../../version.ts';
import type { HookAnswer, HookContext } from '../context.ts';
import {
  envDigest,
  FULL_PATH_VARS,
  MAX_CALLS,
  recordable,
  recordHolds,
  SHORTCUT_FORMAT,
  shortcutCall,
  shortcutHome,
  shortcutPath,
  type ShortcutBasis,
  type ShortcutFile,
} from './shortcut-file.ts';

/** The call's key, when the shortcut may answer it as this call was answered. */
function coveredCall(ctx: HookContext, answer: HookAnswer): string | undefined {
  const { normalized: event, env, config, view } = ctx;
  const raw = event.raw as Record<string, unknown>;
  if (answer.exitCode !== 0 || answer.stderr || answer.notes.length) return undefined;
  if (view.notice || view.tellModel || config.policy || config.disabled || ctx.problem) return undefined;
  if (FULL_PATH_VARS.some((name) => env[name] !== undefined && env[name] !== '')) return undefined;
  if (event.stateless || !recordable(event.event, event.toolKind, !!ctx.installed)) return undefined;
  if (typeof raw.session_id !== 'string' || !raw.session_id || raw.session_id !== event.sessionId) return undefined;
  if (typeof raw.cwd !== 'string' || typeof raw.hook_event_name !== 'string') return undefined;
  if (raw.tool_name !== undefined && typeof raw.tool_name !== 'string') return undefined;
  if (ctx.installed && !unconcerned(ctx)) return undefined;
  return shortcutCall(raw.hook_event_name, raw.tool_name, raw.cwd);
}

/**
 * With validators installed (the event `recordable`): a call that ran nothing, and that no enabled validator could
 * concern whatever file it named.
 */
function unconcerned(ctx: HookContext): boolean {
  const event = ctx.event;
  if (ctx.files.length || ctx.errors.length || ctx.matched.length || ctx.runs.length || ctx.carried.length)
    return false;
  return !ctx.active.some((v) => validatorMatches(v, event, { anyFile: true }));
}

function basisOf(ctx: HookContext, stdout: string): ShortcutBasis | undefined {
  const memo = ctx.view.memo!;
  const dir = ctx.env.CLAUDE_PROJECT_DIR!;
  let id: string;
  try {
    const s = statSync(dir);
    id = `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
  const seen = compacted(memo.seen, avpHome(ctx.env));
  if (!seen) return undefined;
  const projectRoot = ctx.normalized.projectRoot;
  const pending = ctx.installed ? pendingFolder(projectRoot) : undefined;
  if (ctx.installed && !pending) return undefined;
  return {
    seen,
    root: { dir, id },
    projectRoot,
    // The logs as they are now: any growth since the memo's stats moves a print the shortcut compares anyway.
    told: {
      dir: join(memo.trust.project, 'sessions'),
      project: logSize(memo.trust.project),
      user: logSize(memo.trust.user),
    },
    sessions: stateRoot(projectRoot, ctx.env),
    installed: !!ctx.installed,
    ...(pending ? { pending } : {}),
    // As session tracking decides whether a call may begin a turn (session/session.ts, `baseline`).
    stopCheck: !!ctx.installed && ctx.active.some((v) => v.spec.trigger === 'Stop'),
    stdout,
  };
}

/** The folder the shortcut counts its calls in, made by the full path's count: a folder itself, never a link. */
function pendingFolder(projectRoot: string): ShortcutBasis['pending'] {
  const dir = pendingDirOf(projectRoot);
  try {
    const s = lstatSync(dir, { throwIfNoEntry: false });
    return s?.isDirectory() ? { dir, id: `${s.dev}:${s.ino}` } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The same knowledge in fewer stats: a missing path stays missing while the nearest folder above it that exists is
 * unchanged (adding an entry to a folder moves its mtime and ctime), so the ~45 places agents' hook files could
 * appear become a few folders. A busy folder (the home folder, where agents rewrite their state files) voids the
 * record more often, and the next call of the full path writes it again; avp's own home, which changes with avp's
 * state, is never one of those folders. Nor is a folder changed too recently to tell a later change in the same
 * timestamp tick (the parse cache's racy rule): the paths under it are kept one by one. Undefined — nothing
 * recorded — when a path missing before is there now.
 */
function compacted(seen: [string, string][], avpHome: string): [string, string][] | undefined {
  const kept = new Map<string, string>(seen.filter(([, print]) => print !== '-'));
  const missing = seen.filter(([, print]) => print === '-').map(([path]) => path);
  const racyAfter = Date.now() - RACY_MS;
  for (const path of missing) {
    for (let dir = dirname(path); !kept.has(dir); dir = dirname(dir)) {
      const s = statOf(dir);
      if (s === null && dirname(dir) !== dir) continue;
      // avp's own home changes with avp's own state (sessions, caches): its missing files are kept one by one.
      if (dir === avpHome) {
        kept.set(path, '-');
        break;
      }
      // A folder changed in the last moments could change again within the same timestamp tick: the path stays.
      if (s && s !== 'error' && Math.max(s.mtimeMs, s.ctimeMs) > racyAfter) kept.set(path, '-');
      else kept.set(dir, seenPrint(s));
      break;
    }
  }
  // Taken after the folders: a path that appeared before them shows here, one that appears after moves them.
  if (missing.some((path) => statOf(path) !== null)) return undefined;
  return [...kept];
}

function statOf(path: string): StatResult {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return 'error';
  }
}

/** Adds this call to the record (or starts a new one); never throws. */
export function recordShortcut(ctx: HookContext, answer: HookAnswer): void {
  try {
    const call = coveredCall(ctx, answer);
    const home = shortcutHome(ctx.env);
    if (!call || !home || home !== avpHome(ctx.env)) return;
    const basis = basisOf(ctx, answer.stdout);
    if (!basis) return;
    const digest = envDigest(ctx.env);
    const path = shortcutPath(home, digest);
    let before: unknown;
    try {
      before = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      // none yet, or unreadable: a new record
    }
    const kept = recordHolds(before, digest) && sameBasis(before, basis) ? before.calls : [];
    if (kept.includes(call)) return;
    const calls = [...kept, call].slice(-MAX_CALLS);
    const file: ShortcutFile = { format: SHORTCUT_FORMAT, version: VERSION, env: digest, ...basis, calls };
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, JSON.stringify(file));
    if (!kept.length) pruneRecords(dirname(path));
  } catch {
    // a read-only home or a full disk: the next such call takes the full path again
  }
}

/** Records untouched for a week: environments that are gone (an agent's session may carry variables of its own). */
const STALE_MS = 7 * 86_400_000;

/** Removes stale records beside a new one (never on the shortcut's own path, which only reads). */
function pruneRecords(dir: string): void {
  const before = Date.now() - STALE_MS;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('shortcut-')) continue;
    const s = statOf(join(dir, name));
    if (s && s !== 'error' && s.mtimeMs < before) rmSync(join(dir, name), { force: true });
  }
}

function sameBasis(file: ShortcutFile, basis: ShortcutBasis): boolean {
  const { format: _f, version: _v, env: _e, calls: _c, ...was } = file;
  return JSON.stringify(was) === JSON.stringify(basis);
}
