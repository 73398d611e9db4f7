/**
 * Per-session state for the hook engine: the files a turn changed (for Stop/SubagentStop), changes made through Bash
 * (seen by fingerprinting the project around each Bash call), the Stop loop guard and `once` marks.
 * State lives under `$AVP_HOME/sessions/<project key>/<session-id>/` (layout in docs/sessions-and-setup.md), out of
 * the project's reach, and is safe with several hook processes at once. Every function here is a cheap no-op for
 * events it has nothing to do with, and state problems never break a hook call: tracking is best-effort, validation
 * still runs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentAdapter } from '../agents/types.ts';
import type { AvpConfig } from '../config/types.ts';
import { toolKindOf, type HookEvent } from '../protocol/event.ts';
import { isStopTrigger } from '../protocol/trigger.ts';
import type { Validator } from '../validator/types.ts';
import { loadOnce, type OnceState } from './once.ts';
import { guardStop, type GuardDecision } from './stop-guard.ts';
import { appendRecords, ensureSessionDir, flagContents, pruneSessions, sessionDir } from './store.ts';

export type { OnceState } from './once.ts';

/**
 * True for the calls whose file changes avp cannot see from the tool input and must detect on disk: shell tools
 * (whatever the agent calls them), except a shell call avp read as a patch (its files are known).
 */
export function isShellTool(event: HookEvent): boolean {
  return toolKindOf(event) === 'shell';
}

/** A file tool (write, edit, patch) whose changes the event itself names. */
function isFileTool(event: HookEvent): boolean {
  const kind = toolKindOf(event);
  return kind === 'write' || kind === 'edit';
}

/**
 * Prepares an event for matching and judging:
 * - PostToolUse of a file tool (Write/Edit/MultiEdit/NotebookEdit, a patch, each agent's equivalents): records the
 *   event's `files` as changes of the current turn (a patch Codex applies without a PostToolUse is seen by the
 *   turn's baseline comparison at Stop);
 * - PreToolUse of a shell tool: fingerprints the project; PostToolUse/PostToolUseFailure of one: compares, fills
 *   `files` with what the command changed and records those changes;
 * - UserPromptSubmit: a new turn begins (with a baseline snapshot when a Stop validator is installed);
 * - Stop/SubagentStop: fills `files` with every file changed during the turn (before, after, diff) — for the main
 *   agent's Stop also what changed behind avp's back, compared with the turn's baseline;
 * - SessionStart: takes the Bash baseline (and the first turn's);
 * - any event right after an unblocked Stop: takes the next turn's baseline.
 * Without a session id there is no session state: the event is returned as it is. With `opts.validators` (the
 * installed, enabled validators), Bash snapshots are skipped when none of them could see Bash changes, and turn
 * baselines when there is no Stop validator.
 */
export async function prepareEvent(
  event: HookEvent,
  config: AvpConfig,
  opts: { validators?: Validator[] } = {},
): Promise<HookEvent> {
  if (!event.sessionId) return event;
  const name = event.event;
  const shell = isShellTool(event);
  // Only a Stop validator looks at the turn's baseline: without one, no git run and no snapshot for it.
  const baseline = !opts.validators || opts.validators.some((v) => v.spec.trigger === 'Stop');
  if (baseline && name !== 'UserPromptSubmit' && name !== 'SessionStart') await turnAfterStop(event, config);
  // Snapshots cost a `git status` each: skip them when the caller says no installed validator could see the result.
  if (shell && name !== 'SessionStart' && opts.validators && !(await wantsShellChanges(opts.validators, event)))
    return event;
  const relevant =
    name === 'UserPromptSubmit' ||
    name === 'SessionStart' ||
    isStopTrigger(name) ||
    (name === 'PostToolUse' && isFileTool(event)) ||
    ((name === 'PreToolUse' || name === 'PostToolUse' || name === 'PostToolUseFailure') && shell);
  if (!relevant) return event;
  try {
    const dir = ensureSessionDir(event.projectRoot, event.sessionId);
    if (name === 'SessionStart') {
      pruneSessions(event.projectRoot);
      const { takeBaseline } = await import('./bash.ts');
      const snap = await takeBaseline(dir, event, config);
      if (baseline) await (await import('./turn-baseline.ts')).beginTurn(dir, event, config, snap);
      return event;
    }
    if (name === 'UserPromptSubmit') {
      // Gemini CLI sends a blocked Stop's reason back as a prompt: the same turn, and the loop guard goes on counting.
      const { takeStopContinuation } = await import('./continuation.ts');
      if (takeStopContinuation(dir, event.prompt)) return { ...event, sameTurn: true };
      const { startTurn } = await import('./turn.ts');
      if (!startTurn(dir, 'prompt', event.turnId)) return { ...event, sameTurn: true };
      if (baseline) await (await import('./turn-baseline.ts')).beginTurn(dir, event, config);
      return event;
    }
    if (isStopTrigger(name)) {
      const { agentOf, turnFiles } = await import('./turn.ts');
      let files = await turnFiles(dir, event);
      const agent = agentOf(event);
      // The main agent's turn: also what changed behind avp's back. A sub-agent's turn holds only its own changes,
      // which the baseline cannot tell apart from the main agent's.
      const main = name === 'Stop' && !agent && baseline;
      const turnBase = main ? await import('./turn-baseline.ts') : undefined;
      const seen = turnBase ? await turnBase.baselineChanges(dir, event, config) : undefined;
      if (turnBase && seen) files = turnBase.mergeTurnFiles(files, seen);
      // After computing the files: this Stop's own record must not end the turn it is judging.
      appendRecords(dir, [{ t: 'stop', ts: Date.now(), ...(agent ? { agent } : {}) }]);
      turnBase?.markStopped(dir);
      return { ...event, files };
    }
    if (shell) {
      const bash = await import('./bash.ts');
      if (name === 'PreToolUse') {
        await bash.beforeShell(dir, event, config);
        return event;
      }
      const files = await bash.afterShell(dir, event, config);
      return files.length ? { ...event, files: [...event.files, ...files] } : event;
    }
    const { recordChanges } = await import('./turn.ts');
    recordChanges(dir, event, event.files);
    return event;
  } catch (e) {
    // State is an aid, not a gate: a full disk or a read-only project must not turn every tool call into an error.
    if (process.env.AVP_DEBUG) process.stderr.write(`avp: session state: ${(e as Error).message}\n`);
    return event;
  }
}

/** After an unblocked main-agent Stop, the next event begins a turn (one `stat` otherwise). */
async function turnAfterStop(event: HookEvent, config: AvpConfig): Promise<void> {
  try {
    const dir = sessionDir(event.projectRoot, event.sessionId!);
    if (!existsSync(join(dir, 'turn', 'stopped'))) return;
    const { continueOrBegin } = await import('./turn-baseline.ts');
    await continueOrBegin(dir, event, config);
  } catch (e) {
    if (process.env.AVP_DEBUG) process.stderr.write(`avp: turn baseline: ${(e as Error).message}\n`);
  }
}

/**
 * True when some validator could see what a Bash command changed: a PostToolUse/PostToolUseFailure validator whose
 * `match.tools` admits Bash, or any Stop/SubagentStop validator (the turn's files include Bash changes).
 */
export async function wantsShellChanges(validators: Validator[], event: HookEvent): Promise<boolean> {
  if (validators.some((v) => isStopTrigger(v.spec.trigger))) return true;
  const { validatorMatches } = await import('../validator/match.ts');
  return ['PostToolUse', 'PostToolUseFailure'].some((name) => {
    const probe: HookEvent = { ...event, event: name, files: [] };
    return validators.some((v) => validatorMatches(v, probe));
  });
}

/**
 * The Stop loop guard (Stop/SubagentStop only; other events get `{ block: wantsBlock }`). `remaining` — the report's
 * summary of what still fails — goes into the `systemMessage` when the guard lets a failing Stop through.
 */
export async function stopGuard(
  event: HookEvent,
  wantsBlock: boolean,
  config: AvpConfig,
  opts: { remaining?: string } = {},
): Promise<GuardDecision> {
  if (!isStopTrigger(event.event)) return { block: wantsBlock };
  if (!event.sessionId) {
    // Nothing to count with; Claude Code's own limit (8 forced continuations) still bounds the loop.
    return { block: wantsBlock };
  }
  try {
    const dir = ensureSessionDir(event.projectRoot, event.sessionId);
    // The config loader guarantees an integer ≥ 0 (file schema and AVP_MAX_STOP_BLOCKS alike).
    return await guardStop(dir, event, wantsBlock, config.maxStopBlocks, opts.remaining);
  } catch (e) {
    if (process.env.AVP_DEBUG) process.stderr.write(`avp: stop guard state: ${(e as Error).message}\n`);
    return { block: wantsBlock };
  }
}

/**
 * Records the reason avp gave at a main-agent Stop it blocked (cleared when a Stop is let through), so the agent's
 * continuation carrying that reason is not taken for a new user prompt. Best-effort, like all session state.
 */
export async function noteStopAnswer(event: HookEvent, blocked: boolean, reason: string | undefined): Promise<void> {
  if (event.event !== 'Stop' || event.subagentId || !event.sessionId || event.stateless) return;
  try {
    const { noteStopReason } = await import('./continuation.ts');
    noteStopReason(ensureSessionDir(event.projectRoot, event.sessionId), blocked ? reason : undefined);
  } catch (e) {
    if (process.env.AVP_DEBUG) process.stderr.write(`avp: stop reason state: ${(e as Error).message}\n`);
  }
}

/**
 * True for an adapter whose PostToolUse answer cannot refuse (it has events mapped to PostToolUse and no refusal
 * there): its blocking findings after a tool ran are carried to the session's next blocking point and its Stop.
 */
export function observesOnlyAfter(adapter: Pick<AgentAdapter, 'events' | 'abilities'>): boolean {
  return !adapter.abilities.PostToolUse?.stop && Object.values(adapter.events).includes('PostToolUse');
}

/** The session has carried findings (session/carried-findings.ts): one `stat`, false without a session. */
export function hasCarriedFindings(event: HookEvent): boolean {
  if (!event.sessionId || event.stateless) return false;
  return existsSync(join(sessionDir(event.projectRoot, event.sessionId), 'carried-findings.json'));
}

/**
 * After a blocking report: the contents its failed validators flagged are never kept at rest (session/store.ts
 * `flagContents`), so a key the agent wrote and then removed leaves no copy behind. Only the files a failed verdict
 * names (all the call's files when it names none): a Stop blocked for one file must not cost the diffs of the rest.
 * Best-effort, like all session state.
 */
export function forgetBlockedContents(
  event: HookEvent,
  runs: ReadonlyArray<{ status: string; verdict?: { violations: ReadonlyArray<{ file?: string }> } }>,
): string | undefined {
  if (!event.sessionId || event.stateless) return undefined;
  const names = (f: HookEvent['files'][number]) => (n: string) => {
    const rel = n.replace(/\\/g, '/').replace(/^\.\//, '');
    return rel === f.relPath || n === f.path || n === f.namedPath || f.path.endsWith(`/${rel}`);
  };
  const flagged = new Set<HookEvent['files'][number]>();
  for (const r of runs) {
    if (r.status !== 'failed') continue;
    const named = (r.verdict?.violations ?? []).flatMap((v) => (v.file ? [v.file] : []));
    const hit = event.files.filter((f) => named.some(names(f)));
    // Names no file, or none of this call's: every file of the call may hold what it found.
    for (const f of hit.length && named.length ? hit : event.files) flagged.add(f);
  }
  const texts = [...flagged].flatMap((f) => (typeof f.after === 'string' ? [f.after] : []));
  if (!texts.length) return undefined;
  try {
    flagContents(ensureSessionDir(event.projectRoot, event.sessionId), texts);
  } catch (e) {
    return `avp: could not forget the blocked contents: ${(e as Error).message}`;
  }
  return undefined;
}

/** `once` marks of a session (without a session id nothing is ever done, and marks are not kept). */
export async function onceState(projectRoot: string, sessionId: string | undefined): Promise<OnceState> {
  return loadOnce(sessionId ? sessionDir(projectRoot, sessionId) : undefined);
}
