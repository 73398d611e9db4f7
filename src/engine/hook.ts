/**
 * One hook call, from the parsed stdin JSON to the agent's answer, for any agent: its adapter normalizes the input and
 * words the engine's neutral decision; everything between speaks only `HookEvent`. The order is chosen for the common
 * case — an event no validator cares about — which must cost a few milliseconds: normalize (sync, no disk), config (two
 * readdirs when no config file exists), discover (parse cache), match (picomatch), and out with `{}`. Only when
 * something matches are the engine, judges, diff and valibot loaded.
 */
import { killSwitchForbidden, missingRequired } from '../config-managed.ts';
import { isDisabled, truthy } from '../config.ts';
import { applyPrecedence, discover, loadSource } from '../format/discover.ts';
import type { Discovery, Validator } from '../format/types.ts';
import type { AgentAdapter, Decision } from '../agents/types.ts';
import { callKey, countCall } from '../stats/calls.ts';
import { guardDenial } from '../trust/guard.ts';
import { hookTrustView } from '../trust/hook-view.ts';
import { withNotice } from '../trust/notice.ts';
import { PASS_DECISION, refusal } from './decision.ts';
import { configFor, configRun, matchForEvent, profiler } from './hook-parts.ts';
import { hasCarriedFindings, noteStopAnswer, observesOnlyAfter, prepareEvent, stopGuard } from './session.ts';
import type { ValidatorRun } from './types.ts';

export interface HookAnswer {
  stdout: string;
  exitCode: number;
  /** The answer's own stderr: the refusal's text on agents that read exit 2 and stderr (Windsurf, Kiro). */
  stderr?: string;
  /** Notes for stderr (never shown to the model): a log that could not be written, state problems. */
  notes: string[];
}

/** Answers one Claude Code hook input (Claude Code's adapter; kept for callers that speak only Claude Code). */
export async function answerClaudeHook(
  input: unknown,
  env: NodeJS.ProcessEnv,
  startedAt = Date.now(),
): Promise<HookAnswer> {
  const { default: claude } = await import('../agents/claude/index.ts');
  return answerHook(claude, input, env, startedAt);
}

/**
 * Answers one hook input of the agent `adapter` speaks for. Throws AvpError('hook-input') only for input that is not
 * an event (the caller answers with the adapter's `failClosed`).
 */
export async function answerHook(
  adapter: AgentAdapter,
  input: unknown,
  env: NodeJS.ProcessEnv,
  startedAt = Date.now(),
): Promise<HookAnswer> {
  // AVP_PROFILE=1: per-phase milliseconds on stderr (where the no-match path spends its time).
  const profile = env.AVP_PROFILE === '1' ? profiler() : undefined;
  let event = adapter.normalize(input, env);
  profile?.mark('normalize');
  const ability = adapter.abilities[event.event];
  const answer = (decision: Decision, notes: string[] = []): HookAnswer => {
    const out = adapter.render(event, decision);
    if (profile) notes.push(profile.done());
    return { stdout: out.stdout, exitCode: out.exitCode, notes, ...(out.stderr ? { stderr: out.stderr } : {}) };
  };
  const pass = () => answer(PASS_DECISION);
  // The user's kill switch comes first: it needs no config, no accepted state (unless a managed policy forbids it).
  if (truthy(env.AVP_DISABLE) && !killSwitchForbidden(env)) return pass();
  // What avp runs on is the state the user accepted; changes to it (pending) are announced, not obeyed.
  const view = hookTrustView(event.projectRoot, env, event.event, event.sessionId);
  // What the managed policy refused (a kill switch, a disable) is said to the user on every answer.
  let policyNotes: string[] = [];
  const notice = (decision: Decision, notes?: string[]) =>
    answer(
      withNotice(
        decision,
        ability,
        [view.notice, ...policyNotes].filter(Boolean).join('\n\n') || undefined,
        view.tellModel,
      ),
      notes,
    );
  profile?.mark('accepted state');
  const guarded = await guardDenial(event, env, startedAt);
  event = guarded.event;
  if (guarded.denial) return notice(refusal(guarded.denial, 'avp refused a change to its own files'));
  const loaded = await configFor(event, env, view);
  const problem = loaded.problem;
  // Not a project (no `.avp/`/`.git/`, or missing): validators still run, but nothing is written under it.
  const config = event.stateless
    ? { ...loaded.config, cache: { ...loaded.config.cache, enabled: false } }
    : loaded.config;
  policyNotes = config.policy?.notes.map((n) => `avp: ${n}.`) ?? [];
  profile?.mark('config');
  if (config.disabled) return notice(PASS_DECISION);

  let found = await discover({
    projectRoot: event.projectRoot,
    env,
    noCache: !config.cache.enabled,
    projectDir: view.projectValidators,
    userDir: view.userValidators,
    listing: view.listing,
  });
  // `avp init --managed`: the administrator's validators come first, over any project or user validator of the
  // same name, and are parsed every call (the parse cache lives where the user can write).
  if (config.policy?.validatorsDir) found = await withManagedValidators(found, config.policy.validatorsDir);
  profile?.mark('discover');
  // A validator the managed policy requires and that is not installed fails closed, like a broken one.
  const missing = config.policy ? missingRequired(config.policy, found.validators, found.errors) : [];
  if (missing.length) found = { ...found, errors: [...found.errors, ...missing] };
  // Nothing installed anywhere: nothing can ever match, and there is no turn worth tracking.
  if (!found.validators.length && !found.errors.length) return notice(PASS_DECISION);
  // Counted also when nothing matches (the run log never sees those calls): `avp stats`' denominator.
  const call = callKey(event, startedAt);
  if (!event.stateless) countCall(event, call);

  const active = found.validators.filter((v) => !isDisabled(config, v.id, v.name));
  // Given the enabled validators, session tracking skips Bash snapshots no validator could look at.
  if (!event.stateless) event = await prepareEvent(event, config, { validators: active });
  profile?.mark('prepareEvent');
  if (event.sameTurn) return notice(PASS_DECISION);
  // Findings of an edit the agent's after-event could not refuse (Cursor's afterFileEdit) are carried: raised once at
  // the session's next blocking point, and at the Stop until fixed. Without any, this costs one stat.
  const carries = !event.stateless && !!event.sessionId && observesOnlyAfter(adapter);
  let carried: ValidatorRun[] = [];
  const stateNotes: string[] = [];
  try {
    if (carries && event.event === 'PreToolUse' && ability?.stop && hasCarriedFindings(event)) {
      const refused = await (await import('./carry.ts')).carriedRefusal(event, active, ability.stop);
      profile?.mark('carried findings');
      if (refused) return notice(refused);
    }
    if (carries && event.event === 'Stop' && !event.subagentId && hasCarriedFindings(event))
      carried = (await import('./carry.ts')).carriedStopRuns(event, active);
  } catch (e) {
    // Like all session state, an aid: the call is still judged on its own.
    stateNotes.push(`avp: could not read the carried findings: ${(e as Error).message}`);
  }
  const picked = await matchForEvent(active, found.errors, event);
  let matched = picked.matched;
  let loadErrors = picked.loadErrors;
  const once = picked.once;
  // An observe-only after-event of a file tool: judged on what is on disk, minus what its PreToolUse already judged.
  const observing = carries && event.event === 'PostToolUse' && matched.length > 0;
  let judgedAtPre: Validator[] = [];
  if (observing) {
    const observed = await (await import('./observed-edit.ts')).observeEdit(event, matched);
    event = observed.event;
    judgedAtPre = observed.judged;
    matched = matched.filter((v) => !judgedAtPre.includes(v));
    if (!matched.length && !loadErrors.length) {
      await (await import('./observed-edit.ts')).recordObserved(event, [], [], judgedAtPre, config, []);
      return notice(PASS_DECISION);
    }
  }
  profile?.mark('match');
  if (!matched.length && !loadErrors.length && !carried.length) return notice(PASS_DECISION);

  const [
    { runValidators, loadErrorName },
    { aggregate },
    { decide },
    { writeRunLog, fullReportPath, writeFullReport },
    { completeFileChanges },
  ] = await Promise.all([
    import('./run.ts'),
    import('./aggregate.ts'),
    import('./decision.ts'),
    import('./log.ts'),
    import('../hosts/complete-files.ts'),
  ]);
  profile?.mark('load engine');
  // A broken validator can be switched off by the name its error is reported under.
  loadErrors = loadErrors.filter((e) => !isDisabled(config, loadErrorName(e), loadErrorName(e)));
  if (!matched.length && !loadErrors.length && !carried.length) return notice(PASS_DECISION);
  let runs: ValidatorRun[] = [];
  try {
    event = await completeFileChanges(event, startedAt + config.budgetMs);
    profile?.mark('complete files');
    if (matched.length || loadErrors.length)
      runs = await runValidators(matched, loadErrors, event, config, { deadline: startedAt + config.budgetMs });
  } catch (e) {
    // avp itself failed (the caller answers with the adapter's refusal): nothing was evaluated, so nothing is done.
    await once?.state.release([...once.mine]).catch(() => {});
    throw e;
  }
  profile?.mark('run validators');
  const notes: string[] = stateNotes;
  if (once) {
    const unevaluated = runs.filter((r) => r.status === 'error' && once.mine.has(r.id)).map((r) => r.id);
    await once.state.release(unevaluated).catch((e: Error) => notes.push(`avp: once state: ${e.message}`));
  }
  if (problem) runs.unshift(configRun(problem));
  // What carried findings add goes into the answer, not into the run log (the edit's own run is there already).
  const logged = runs;
  if (carried.length) runs = [...runs, ...carried];
  const report = aggregate(runs, config);
  let carriedNow = 0;
  const observedEdit = carries ? await import('./observed-edit.ts') : undefined;
  if (observing) carriedNow = await observedEdit!.recordObserved(event, matched, runs, judgedAtPre, config, notes);
  else if (carries && event.event === 'PreToolUse' && event.alsoTrigger === 'PostToolUse' && report.outcome !== 'ERROR')
    await observedEdit!.recordObserved(event, matched, runs, undefined, config, notes);
  let extra: { systemMessage?: string; noBlock?: boolean } = {};
  if (event.event === 'Stop' || event.event === 'SubagentStop') {
    const guard: { block: boolean; systemMessage?: string } = event.stateless
      ? { block: report.outcome === 'ERROR' }
      : await stopGuard(event, report.outcome === 'ERROR', config, { remaining: report.summary });
    extra = { ...(guard.systemMessage ? { systemMessage: guard.systemMessage } : {}), noBlock: !guard.block };
  }
  const logError = event.stateless
    ? undefined
    : await writeRunLog(event, logged, report, {
        call,
        callMs: Date.now() - startedAt,
        cacheEnabled: config.cache.enabled,
      });
  if (logError) notes.push(`avp: could not write the run log: ${logError.message}`);
  profile?.mark('guard + log');
  // Not a project: nothing is written under it, so there is no full report to point to.
  const reportPath = event.stateless ? undefined : fullReportPath(event);
  // A blocked Stop re-sends no finding the agent was already shown for the same content (a brief "still failing").
  const repeats =
    extra.noBlock === false ? (await import('./session/shown-findings.ts')).stopRepeats(event) : undefined;
  const { decision, fullReport } = decide(event, report, runs, ability, {
    ...extra,
    fullReport: reportPath,
    ...(repeats ? { repeated: repeats.repeated } : {}),
  });
  if (carriedNow) observedEdit!.tellCarried(decision, event, carriedNow);
  if (event.event === 'Stop') await noteStopAnswer(event, decision.kind === 'block', decision.reason);
  const repeatError = report.outcome === 'ERROR' ? repeats?.remember(runs) : undefined;
  if (repeatError) notes.push(`avp: could not record the findings shown: ${repeatError.message}`);
  if (fullReport !== undefined && reportPath) {
    const error = await writeFullReport(event.projectRoot, reportPath, fullReport);
    if (error) notes.push(`avp: could not write the full report: ${error.message}`);
  }
  return notice(decision, notes);
}

async function withManagedValidators(found: Discovery, dir: string): Promise<Discovery> {
  const managed = await loadSource(dir, 'user', '', true);
  const merged = applyPrecedence(managed, { validators: found.validators, errors: found.errors, warnings: [] });
  return {
    ...merged,
    warnings: [...merged.warnings, ...found.warnings],
    shadowed: [...found.shadowed, ...merged.shadowed],
  };
}
