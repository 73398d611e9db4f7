/**
 * What hook mode reads, given the accepted state. For each scope (project, user): when the live control files are
 * the accepted ones, hook mode reads them where they are (today's fast path); when anything is pending, it reads the
 * accepted copies from `$AVP_HOME/trust/…/tree` instead, so a change the agent made — a config that disables avp, an
 * edited or deleted validator, a new validator shadowing a user one — has no effect until the user accepts it, and
 * the user is told at once. The first time avp meets a scope it accepts what is there (trust on first use) and says
 * so: `avp init` normally does this first.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotListing, type Listing } from '../validator/listing.ts';
import type { Discovery } from '../validator/types.ts';
import { avpHome, projectValidatorsDir, userValidatorsDir } from '../paths.ts';
import { userRcPath } from './control-files.ts';
import { describePending, pendingFingerprint, scopeState, type PendingChange, type ScopeState } from './state.ts';
import { writeAccepted, type TrustRecord } from './store.ts';
import { logPath, logSize } from './acceptance-log.ts';
import { acceptanceNews } from './announce.ts';
import { openMemo, writeMemo, type HookMemo } from './hook-memo.ts';
import { recordTampered } from './record-check.ts';

export interface TrustView {
  /** Where discovery reads the project's validators. */
  projectValidators: string;
  /** Where config loading reads the project's config files (a folder laid out like the project root). */
  projectConfigRoot: string;
  /** Where discovery reads the user's validators. */
  userValidators: string;
  /** The user's config files to read. */
  userConfig: { json: string; rc: string };
  /** What waits for `avp accept` (both scopes). */
  pending: PendingChange[];
  /** For the user: pending changes, or a first acceptance. Undefined when there is nothing new to say. */
  notice?: string;
  /** True when the model should be told that changes wait for the user (a pending set is announced). */
  tellModel: boolean;
  /**
   * The folders as this check listed and stat'ed them, for discovery: it walks the same validators folders, so
   * sharing the snapshot makes a call where nothing changed walk them once (and discovery judges its parse cache
   * against exactly the stats this check approved).
   */
  listing: Listing;
  /** Discovery's result from the hook memo, when it held (nothing looked at changed since it was written). */
  discovery?: Discovery;
  /** Set when nothing is pending: discovery hands its result here, and the memo is written for the next call. */
  remember?: (found: Discovery) => void;
  /**
   * The memo this call's conclusion stands on — held, or written by `remember` — with the trust folders: what the
   * hook shortcut (hook/shortcut/) checks before it answers a call alone.
   */
  memo?: MemoBasis;
}

/** See `TrustView.memo`. */
export interface MemoBasis {
  seen: [string, string][];
  trust: { project: string; user: string };
}

function firstAcceptance(state: ScopeState, env: NodeJS.ProcessEnv): string | undefined {
  // A log with acceptances but no record: the record was removed (by hand, or by the agent's shell) — say so.
  const removed = logSize(state.dir) > 0;
  writeAccepted(
    state.scope,
    state.base,
    env,
    state.live,
    state.pending.filter((p) => p.change === 'deleted').map((p) => p.key),
    { by: 'first run (a hook call)', origin: { pid: process.pid, ppid: process.ppid } },
  );
  if (!state.live.length && !removed) return undefined;
  const where = state.scope === 'project' ? state.base : 'your user folder (~/.avp)';
  if (removed) {
    return (
      `avp: the accepted record of ${where} was removed outside avp (it had been accepted before); avp accepted ` +
      `its ${state.live.length} avp control file(s) as they are now. If you did not remove it, review them with ` +
      '`avp accept --dry-run` after undoing any change you did not make.'
    );
  }
  return (
    `avp accepted the ${state.live.length} avp control file(s) of ${where} as they are now (first run here). ` +
    'From now on, changes to validators, config and avp hooks wait until you run `avp accept` in your terminal.'
  );
}

/**
 * The view for one hook call (`event`: the hook event's name). Writes only on a first acceptance and when a new
 * pending set is announced.
 */
export function hookTrustView(projectRoot: string, env: NodeJS.ProcessEnv, event = '', sessionId?: string): TrustView {
  const memo = openMemo(projectRoot, env);
  if (memo.held) return heldView(projectRoot, env, sessionId, memo.held);
  const listing = snapshotListing();
  const states = [scopeState('project', projectRoot, env, listing), scopeState('user', avpHome(env), env, listing)];
  const notices: string[] = [];
  const pending: PendingChange[] = [];
  for (const s of states) {
    if (!s.record) {
      const said = firstAcceptance(s, env);
      if (said) notices.push(said);
      s.pending = [];
      continue;
    }
    pending.push(...s.pending);
  }
  const [project, user] = states as [ScopeState, ScopeState];
  const tampered = { project: recordTampered(project), user: recordTampered(user) };
  // Acceptances since this session began (made by anyone: never silent) and records changed outside avp.
  const news = acceptanceNews(project, user, sessionId, tampered);
  if (news) notices.push(news);
  // A record edited outside avp cannot say what is accepted: run on the accepted copies, as while a change waits.
  const projectFromTree = project.pending.length > 0 || !!tampered.project;
  const userFromTree = user.pending.length > 0 || !!tampered.user;
  // Announced once per new pending set, and again at the start of every session while anything is pending.
  const tellModel = pending.length > 0 && (announce(project.dir, pending) || event === 'SessionStart');
  if (tellModel) {
    // A hook settings change that stops the agent calling avp is said as it is: accepted state cannot undo it.
    const off = pending.filter((p) => p.off);
    const rest = pending.filter((p) => !p.off);
    if (off.length)
      notices.push(
        `avp: the hooks that call avp were changed outside \`avp init\`: ${off.map((p) => `${p.key} (${p.off})`).join('; ')}. ` +
          'The agent may stop calling avp, so its changes may go unchecked from now on. In your own terminal, run ' +
          '`avp doctor` to see what is installed and `avp init` to restore the hooks' +
          (off.some((p) => p.file?.kind === 'env')
            ? '; take the line out of the .env file (or `avp accept` it if you set it yourself).'
            : '.'),
      );
    if (rest.length)
      notices.push(
        `avp: ${rest.length} change(s) to avp's validators, config or hooks are not in effect: ` +
          `${describePending(rest)}. avp keeps checking with the accepted state. ` +
          'To review and accept them, run `avp accept` in your own terminal (the agent cannot).',
      );
  }
  const view: TrustView = {
    projectValidators: projectFromTree
      ? join(project.dir, 'tree', '.avp', 'validators')
      : projectValidatorsDir(projectRoot),
    projectConfigRoot: projectFromTree ? join(project.dir, 'tree') : projectRoot,
    userValidators: userFromTree ? join(user.dir, 'tree', '.avp', 'validators') : userValidatorsDir(env),
    userConfig: userFromTree
      ? { json: join(user.dir, 'tree', '.avp', 'config.json'), rc: join(user.dir, 'tree', '.avprc') }
      : { json: join(avpHome(env), 'config.json'), rc: userRcPath(env) },
    pending,
    notice: notices.length ? notices.join('\n') : undefined,
    tellModel,
    listing,
    remember: quiet(project, user, tampered)
      ? (found) => {
          const seen = writeMemo(
            env,
            memo.key,
            listing,
            [project.dir, user.dir].flatMap((dir) => [join(dir, 'accepted.json'), logPath(dir)]),
            {
              project: { dir: project.dir, sha: project.record!.sha! },
              user: { dir: user.dir, sha: user.record!.sha! },
            },
            found,
          );
          if (seen) view.memo = { seen, trust: { project: project.dir, user: user.dir } };
        }
      : undefined,
  };
  return view;
}

/** Both scopes accepted before this call, nothing pending, both records avp's own: what a memo may stand for. */
function quiet(project: ScopeState, user: ScopeState, tampered: { project?: string; user?: string }): boolean {
  const accepted = (s: ScopeState) => !!s.record?.sha && !s.pending.length;
  return accepted(project) && accepted(user) && !tampered.project && !tampered.user;
}

/**
 * The view when the hook memo held: the live folders (nothing is pending), the memo's discovery, and the
 * acceptance news of this session, which is never memoized (each session is told of acceptances on its own).
 */
function heldView(projectRoot: string, env: NodeJS.ProcessEnv, sessionId: string | undefined, held: HookMemo) {
  const state = (scope: 'project' | 'user', base: string, m: HookMemo['project']): ScopeState => ({
    scope,
    base,
    dir: m.dir,
    record: { sha: m.sha } as TrustRecord,
    live: [],
    pending: [],
  });
  const project = state('project', projectRoot, held.project);
  const user = state('user', avpHome(env), held.user);
  const view: TrustView = {
    projectValidators: projectValidatorsDir(projectRoot),
    projectConfigRoot: projectRoot,
    userValidators: userValidatorsDir(env),
    userConfig: { json: join(avpHome(env), 'config.json'), rc: userRcPath(env) },
    pending: [],
    notice: acceptanceNews(project, user, sessionId, {}),
    tellModel: false,
    listing: snapshotListing(),
    discovery: held.discovery,
    memo: { seen: held.seen, trust: { project: held.project.dir, user: held.user.dir } },
  };
  return view;
}

/** True the first time this pending set is seen (it is then remembered), so each new set is announced once. */
function announce(dir: string, pending: PendingChange[]): boolean {
  const path = join(dir, 'announced.txt');
  const fp = pendingFingerprint(pending);
  try {
    if (readFileSync(path, 'utf8') === fp) return false;
  } catch {
    // never announced
  }
  try {
    writeFileSync(path, fp);
  } catch {
    // announce again next time rather than never
  }
  return true;
}
