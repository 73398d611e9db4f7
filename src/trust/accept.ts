/**
 * Acceptance: the user makes the live control files the accepted state (all of them, or the files of one validator
 * or config file). `avp accept` shows what changed, with diffs against the accepted copies, before it records.
 * Commands the user runs to change the control plane (`avp init`, `avp add`, `avp remove`, `avp new`, …) accept
 * exactly what they changed — never the agent's pending changes beside it — unless they run inside an agent.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { avpHome } from '../paths.ts';
import { AvpError } from '../errors.ts';
import { treePath, userHookFiles, userOwnedHookFiles, type TrustScope } from './control-files.ts';
import { MARKER_NAMES, runningUnderAgent } from './agent-env.ts';
import { envSwitchLines } from './env-switches.ts';
import { processOrigin } from './process-origin.ts';
import { recordTampered } from './record-check.ts';
import { scopeState, type PendingChange, type ScopeState } from './state.ts';
import { avpHookEntries, writeAccepted, type Accepter } from './store.ts';

/** Both scopes' states for a project. */
export function trustStates(projectRoot: string, env: NodeJS.ProcessEnv): ScopeState[] {
  return [scopeState('project', projectRoot, env), scopeState('user', avpHome(env), env)];
}

/** The accepter for the log: the command and this process's origin (parent chain, terminal, agent markers). */
export function commandAccepter(by: string): Accepter {
  const o = processOrigin(MARKER_NAMES);
  return {
    by,
    origin: {
      pid: o.pid,
      ppid: o.ppid,
      ...(o.sid !== undefined ? { sid: o.sid } : {}),
      ...(o.tty !== undefined ? { tty: o.tty } : {}),
      stdinTty: o.stdinTty,
      chain: o.chain.map(({ pid, name, args }) => ({ pid, name, args })),
      ...(o.marker ? { marker: o.marker } : {}),
    },
  };
}

/** `avp <command>` of this process, for the acceptance log. */
function thisCommand(): string {
  const name = process.argv.slice(2).find((a) => !a.startsWith('-'));
  return name ? `avp ${name}` : 'avp';
}

/**
 * Makes the selected pending changes (all when `select` is omitted) accepted. Returns what was accepted. A scope
 * whose record no longer matches the acceptance log (edited outside avp) is recorded again whole.
 */
export function acceptPending(
  states: ScopeState[],
  env: NodeJS.ProcessEnv,
  select?: (p: PendingChange) => boolean,
  accepter: Accepter = commandAccepter(thisCommand()),
) {
  const accepted: PendingChange[] = [];
  for (const s of states) {
    const tampered = !select && !!recordTampered(s);
    // A scope never accepted before is accepted whole, as the first hook call would: the user is acting here.
    const chosen = s.pending.filter((p) => !s.record || !select || select(p));
    if (!chosen.length && s.record && !tampered) continue;
    writeAccepted(
      s.scope,
      s.base,
      env,
      tampered ? s.live : chosen.flatMap((p) => (p.file ? [p.file] : [])),
      chosen.filter((p) => p.change === 'deleted').map((p) => p.key),
      accepter,
    );
    accepted.push(...chosen);
  }
  return accepted;
}

/**
 * After a command the user ran changed the control files under `keyPrefixes` (e.g. `.avp/validators/no-secrets/`):
 * accepts those changes, unless the command runs inside an agent. Returns a note for stderr (or undefined).
 */
export function acceptOwnChanges(
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  keyPrefixes: string[],
): string | undefined {
  if (!keyPrefixes.length) return undefined;
  const agent = runningUnderAgent(env);
  const states = trustStates(projectRoot, env);
  const mine = (p: PendingChange) =>
    keyPrefixes.some((k) => p.key === k || p.key.startsWith(k.endsWith('/') ? k : `${k}/`));
  // Accepting beside a record edited outside avp would make its edits look like the user's: all of it waits.
  const tampered = states.find((s) => recordTampered(s) && s.pending.some(mine));
  if (tampered) {
    return (
      `avp: the accepted record of ${tampered.scope === 'project' ? tampered.base : 'your user folder'} was changed ` +
      'outside avp, so this change is not accepted: run `avp accept` in your own terminal to review every file.'
    );
  }
  if (agent) {
    const waiting = states.flatMap((s) => s.pending.filter(mine));
    if (!waiting.length) return undefined;
    return (
      `avp: this runs inside ${agent}, so the change is not in effect for the agent's hooks until the user ` +
      'runs `avp accept` in their own terminal.'
    );
  }
  acceptPending(states, env, mine);
  return undefined;
}

function text(path: string): string | undefined {
  try {
    const bytes = readFileSync(path);
    if (bytes.length > 256 * 1024 || bytes.includes(0)) return undefined;
    return bytes.toString('utf8');
  } catch {
    return undefined;
  }
}

/** A unified diff of one pending change against the accepted copy (text files up to 256 KiB). */
export async function pendingDiff(state: ScopeState, p: PendingChange): Promise<string | undefined> {
  const { createTwoFilesPatch } = await import('diff');
  // A .env file holds secrets: only its switching lines are shown, never the rest.
  if (p.file?.kind === 'env')
    return `lines that switch hooks off now:\n${envSwitchLines(text(p.file.path) ?? '')
      .map((l) => `  ${l}`)
      .join('\n')}`;
  if (p.file?.kind === 'hooks') {
    const now = avpHookEntries(text(p.file.path) ?? '');
    return `avp's hook entries now:\n${
      now
        ? now
            .split('\n')
            .map((l) => `  ${l}`)
            .join('\n')
        : '  (none: avp is no longer called)'
    }`;
  }
  const before = p.change === 'added' ? '' : text(treePath(`${state.dir}/tree`, p.key));
  const after = p.change === 'deleted' ? '' : p.file && text(p.file.path);
  if (before === undefined || after === undefined) return undefined;
  return createTwoFilesPatch(`a/${p.key}`, `b/${p.key}`, before, after, '', '', { context: 2 })
    .split('\n')
    .slice(1)
    .join('\n')
    .trimEnd();
}

/**
 * `acceptOwnChanges` for absolute paths a command wrote (validator folders or files, lockfiles, settings files):
 * paths in the project become project keys, paths under `$AVP_HOME` user keys (`~/.avp/…`).
 */
export function acceptWrittenPaths(projectRoot: string, env: NodeJS.ProcessEnv, paths: string[]): string | undefined {
  const home = avpHome(env);
  const keys: string[] = [];
  for (const path of paths) {
    const key = keyOf(path, projectRoot, home, env);
    if (key) keys.push(key);
  }
  return acceptOwnChanges(projectRoot, env, keys);
}

function keyOf(path: string, projectRoot: string, home: string, env: NodeJS.ProcessEnv): string | undefined {
  const under = (dir: string) => {
    const rel = relative(dir, path);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : rel === '' ? '' : undefined;
  };
  const hooks = [...userHookFiles(env), ...userOwnedHookFiles(env)].find((f) => f.path === path);
  // A folder of hook scripts (Cline's): its files' keys share the folder's prefix.
  const folder = userOwnedHookFiles(env).find((f) => dirname(f.path) === path);
  if (folder) return dirname(folder.key);
  if (hooks) return hooks.key;
  const inHome = under(home);
  if (inHome !== undefined) return `~/.avp/${inHome}`;
  const inProject = under(projectRoot);
  return inProject || undefined;
}

/**
 * `avp install` installs what the lockfile says: a lockfile the agent changed (pending) would make the user install
 * the agent's choice. Refuses until the user has looked at the change.
 */
export function refuseUnacceptedLockfile(scope: TrustScope, projectRoot: string, env: NodeJS.ProcessEnv): void {
  const key = scope === 'project' ? '.avp/avp-lock.json' : '~/.avp/avp-lock.json';
  const state = scopeState(scope, scope === 'project' ? projectRoot : avpHome(env), env);
  if (!state.record || !state.pending.some((p) => p.key === key)) return;
  throw new AvpError('lockfile-unaccepted', `${key} changed since you last accepted avp's files`, {
    fix: 'review it with `avp accept --dry-run`, accept it with `avp accept`, then run `avp install` again',
  });
}
