/**
 * `avp check`: the hook engine outside an agent. Each changed file becomes a PostToolUse event of Write (created
 * file) or Edit (changed file) with its diff — what an agent's edit would have produced — and one Stop event carries
 * every change, for Stop validators. The same discovery, matching, judges and aggregation as `avp hook` run them.
 */
import type { AvpConfig } from '../config/types.ts';
import { missingRequired } from '../config/managed.ts';
import { configFilesPresent, isDisabled, loadConfig, truthy } from '../config/config.ts';
import { aggregate } from '../runner/aggregate.ts';
import { runCost } from '../runner/log.ts';
import { runValidators } from '../runner/run.ts';
import type { Report, ValidatorRun } from '../runner/types.ts';
import { AvpError } from '../errors.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import { discover } from '../validator/discover.ts';
import { loadErrorsForEvent, matchValidators } from '../validator/match.ts';
import type { TokenUsage } from '../judges/types.ts';
import { collectChanges, type ChangeSource } from './changes.ts';
import { revisionRange } from './git.ts';
import { missingLocked, resolveRules, rulesNotice, type CheckRules, type RulesInfo } from './rules.ts';
import { isControlFile } from './rules-tree.ts';

export interface CheckOptions extends ChangeSource {
  projectRoot: string;
  cwd: string;
  /** Only this event kind: `PostToolUse` (per file) or `Stop` (all changes at once). Default: both. */
  event?: string;
  env?: NodeJS.ProcessEnv;
  /** `--rules`: `base` (default for `--diff`: the base revision's control files) or `head` (the change's own). */
  rules?: string;
}

export interface CheckedEvent {
  event: string;
  tool?: string;
  files: string[];
  validators: string[];
  /** Per validator: what it cost (duration, judge, model, tokens, verdict cache state), as the run log has it. */
  runs: Array<{ validator: string; status: ValidatorRun['status'] } & ReturnType<typeof runCost>>;
  report: Report;
}

export interface CheckResult {
  /** The aggregated report over every run of every event. */
  report: Report;
  events: CheckedEvent[];
  runs: ValidatorRun[];
  files: FileChange[];
  usage?: TokenUsage;
  /** Set when the kill switch is on (`AVP_DISABLE`, `"disabled": true`): what turned avp off; nothing ran. */
  disabled?: string;
  /** Each run validator's description, by id (rule descriptions in the SARIF output). */
  descriptions: Record<string, string>;
  /** Whose rules judged the change, and the control files it edits (the notice every format shows). */
  rules: RulesInfo;
}

const EVENTS = ['PostToolUse', 'Stop'];

function toolEvent(fc: FileChange, base: Omit<HookEvent, 'event' | 'files'>): HookEvent {
  const tool = fc.kind === 'create' ? 'Write' : 'Edit';
  const toolInput: Record<string, unknown> = { file_path: fc.path };
  if (tool === 'Write' && typeof fc.after === 'string') toolInput.content = fc.after;
  return {
    ...base,
    event: 'PostToolUse',
    tool,
    toolInput,
    files: [fc],
    raw: { hook_event_name: 'PostToolUse', tool_name: tool, tool_input: toolInput, source: 'avp check' },
  };
}

function sumUsage(runs: ValidatorRun[]): TokenUsage | undefined {
  const used = runs.filter((r) => r.usage);
  if (!used.length) return undefined;
  const total: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  for (const r of used) {
    total.inputTokens += r.usage!.inputTokens;
    total.outputTokens += r.usage!.outputTokens;
    if (r.usage!.cacheReadTokens) total.cacheReadTokens = (total.cacheReadTokens ?? 0) + r.usage!.cacheReadTokens;
    if (r.usage!.cacheWriteTokens) total.cacheWriteTokens = (total.cacheWriteTokens ?? 0) + r.usage!.cacheWriteTokens;
  }
  return total;
}

/** A run's paths and texts as the project's: a validator read from the base's rules names its project file. */
function relocateRun(run: ValidatorRun, rules: CheckRules): ValidatorRun {
  if (!rules.configRoot) return run;
  const error = run.error && {
    ...run.error,
    cause: rules.relocate(run.error.cause),
    fix: rules.relocate(run.error.fix),
  };
  return { ...run, path: rules.relocate(run.path), ...(error ? { error } : {}) };
}

/** Runs the matching validators over the collected changes, under the rules `opts.rules` picks (rules.ts). */
export async function runCheck(opts: CheckOptions): Promise<CheckResult> {
  const env = opts.env ?? process.env;
  if (opts.event && !EVENTS.includes(opts.event)) {
    throw new AvpError('check-event', `--event ${opts.event} is not something avp check produces`, {
      fix: `use one of: ${EVENTS.join(', ')}`,
    });
  }
  const fromDiff = !!opts.diff && !opts.paths?.length && !opts.staged;
  const range = fromDiff ? revisionRange(opts.projectRoot, opts.diff!) : undefined;
  const rules = resolveRules({ ...opts, projectRoot: opts.projectRoot, range, choice: opts.rules, env });
  try {
    return await checkUnder(rules, { ...opts, ...(range ? { range } : {}) }, env);
  } finally {
    rules.dispose();
  }
}

async function checkUnder(rules: CheckRules, opts: CheckOptions, env: NodeJS.ProcessEnv): Promise<CheckResult> {
  const config: AvpConfig = await loadConfig({
    cwd: opts.cwd,
    projectRoot: opts.projectRoot,
    env,
    ...(rules.configRoot ? { configRoot: rules.configRoot } : {}),
  });
  // The kill switch means the same as in hook mode: avp is off, nothing runs, nothing is blocked.
  if (config.disabled) {
    const files = configFilesPresent(rules.configRoot ?? opts.projectRoot, env).map(rules.relocate);
    const by = truthy(env.AVP_DISABLE)
      ? `AVP_DISABLE=${env.AVP_DISABLE}`
      : `"disabled": true in ${files.join(', ') || 'the config'}`;
    const report = { ...aggregate([], config), summary: `avp is disabled (${by}): no validator ran` };
    return { report, events: [], runs: [], files: [], descriptions: {}, disabled: by, rules: rules.info };
  }
  const files = await collectChanges(opts.projectRoot, opts.cwd, opts);
  const info: RulesInfo = { ...rules.info };
  if (info.base) info.changed = files.map((f) => f.relPath).filter(isControlFile);
  const notice = rulesNotice(info);
  if (notice) info.notice = notice;
  // A materialized rules folder is new every run: its parse cache would only be written, never read again.
  const found = await discover({
    projectRoot: opts.projectRoot,
    env,
    noCache: !config.cache.enabled || !!rules.configRoot,
    ...(rules.validatorsDir ? { projectDir: rules.validatorsDir } : {}),
  });
  found.errors = found.errors.map((e) => ({
    ...e,
    path: rules.relocate(e.path),
    message: rules.relocate(e.message),
    fix: rules.relocate(e.fix),
  }));
  found.errors = [...found.errors, ...missingLocked(rules, found.validators, found.errors)];
  // As in hook mode: a validator the managed policy requires and that is not installed fails closed.
  if (config.policy)
    found.errors = [...found.errors, ...missingRequired(config.policy, found.validators, found.errors)];
  const active = found.validators.filter((v) => !isDisabled(config, v.id, v.name));
  const base = { agent: 'claude' as const, cwd: opts.cwd, projectRoot: opts.projectRoot, raw: {} };
  const events: HookEvent[] = [];
  if (!opts.event || opts.event === 'PostToolUse')
    for (const fc of files) if (fc.kind !== 'delete') events.push(toolEvent(fc, base));
  if (!opts.event || opts.event === 'Stop') {
    events.push({
      ...base,
      event: 'Stop',
      files,
      stopHookActive: false,
      raw: { hook_event_name: 'Stop', stop_hook_active: false, source: 'avp check' },
    });
  }
  const checked: CheckedEvent[] = [];
  const all: ValidatorRun[] = [];
  // Events one after another, validators of each event in parallel (bounded by config.concurrency).
  for (const event of events) {
    const matched = matchValidators(active, event);
    const loadErrors = loadErrorsForEvent(found.errors, event).filter(
      (e) => !e.name || !isDisabled(config, e.name, e.name),
    );
    if (!matched.length && !loadErrors.length) continue;
    const runs = (await runValidators(matched, loadErrors, event, config)).map((r) => relocateRun(r, rules));
    all.push(...runs);
    checked.push({
      event: event.event,
      ...(event.tool ? { tool: event.tool } : {}),
      files: event.files.map((f) => f.relPath),
      validators: runs.map((r) => r.id),
      runs: runs.map((r) => ({ validator: r.id, status: r.status, ...runCost(r, config.cache.enabled) })),
      report: aggregate(runs, config),
    });
  }
  // A broken validator that concerns several events is one problem, reported once.
  const seenErrors = new Set<string>();
  const unique = all.filter((r) => {
    if (r.status !== 'error' || !r.error) return true;
    const key = `${r.id}\0${r.error.cause}`;
    if (seenErrors.has(key)) return false;
    seenErrors.add(key);
    return true;
  });
  const report = aggregate(unique, config);
  const usage = sumUsage(all);
  const descriptions: Record<string, string> = {};
  for (const v of active) if (all.some((r) => r.id === v.id)) descriptions[v.id] = v.spec.description;
  return { report, events: checked, runs: all, files, descriptions, rules: info, ...(usage ? { usage } : {}) };
}
