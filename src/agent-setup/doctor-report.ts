/**
 * `avp doctor`'s library: what avp would do in this project and whether it can — the judge backend and why, whether
 * it answers, the config files, the agents whose hooks call avp, and the validators that fail to load. Returns data;
 * the command prints it.
 */
import { readFileSync } from 'node:fs';
import type { AvpConfig } from '../config/types.ts';
import { errorMessage } from '../errors.ts';
import { findProjectRoot } from '../paths.ts';
import type { Validator } from '../validator/types.ts';
import type { JudgeProblem } from '../judges/judge-check.ts';
import type { AgentStatus } from './doctor.ts';
import type { ProbeResult } from '../judges/probe.ts';

/** One distinct judge avp would use: the default, or one that per-validator routing adds. */
export interface DoctorJudge {
  backend?: string;
  reason?: string;
  model?: string;
  /** LLM validators (ids) it evaluates. */
  validators: string[];
  /** What keeps it from working (seen without asking it), with the fix. */
  problem?: JudgeProblem;
  probe?: ProbeResult;
}

export interface DoctorReport {
  projectRoot: string;
  config: { files: string[]; error?: string };
  judge: {
    backend?: string;
    reason?: string;
    model?: string;
    error?: { message: string; fix?: string };
    /** The default judge was found but cannot work (e.g. its command is not on PATH). */
    problem?: JudgeProblem;
    probe?: ProbeResult;
    /** LLM validators and where they go (per-validator routing and model hints included). */
    validators: Array<{ id: string; backend: string; model?: string }>;
  };
  /** Every distinct judge (the default first), each checked and, unless `--no-probe`, asked once. */
  judges: DoctorJudge[];
  hooks: Array<{ agent: string; file: string; events: string[]; managed?: boolean }>;
  /** Per agent: installed where, missing events, when avp last ran validators for it. */
  agents: AgentStatus[];
  validators: {
    loaded: number;
    script: number;
    llm: number;
    /** Switched off by config (`disabledValidators`, the kill switch): not judged, not counted as problems. */
    disabled?: number;
    errors: Array<{ path: string; line?: number; message: string; fix: string }>;
    warnings: number;
  };
  problems: string[];
  notes: string[];
}

/** Events of a settings file whose hooks run `avp … hook`. */
async function avpEvents(file: string): Promise<string[] | { error: string }> {
  const [{ parse }, { isAvpHookCommand }] = await Promise.all([import('jsonc-parser'), import('./hook-settings.ts')]);
  const errors: unknown[] = [];
  const value = parse(readFileSync(file, 'utf8'), errors as never, { allowTrailingComma: true });
  if (errors.length) return { error: 'not valid JSON' };
  const hooks = value?.hooks;
  if (!hooks || typeof hooks !== 'object') return [];
  const hasAvp = (x: unknown): boolean =>
    Array.isArray(x)
      ? x.some(hasAvp)
      : x !== null && typeof x === 'object'
        ? Object.entries(x).some(([k, v]) => (k === 'command' ? isAvpHookCommand(v) : hasAvp(v)))
        : false;
  return Object.entries(hooks)
    .filter(([, v]) => hasAvp(v))
    .map(([k]) => k);
}

/** Builds the report. `probe: false` skips the request to the backend. */
export async function doctorReport(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  probe: boolean;
  timeoutMs: number;
}): Promise<DoctorReport> {
  const { env } = opts;
  const projectRoot = findProjectRoot(opts.cwd, env);
  const { loadConfig, configFilesPresent, defaultConfig, isDisabled } = await import('../config/config.ts');
  const report: DoctorReport = {
    projectRoot,
    config: { files: configFilesPresent(projectRoot, env) },
    judge: { validators: [] },
    judges: [],
    hooks: [],
    agents: [],
    validators: { loaded: 0, script: 0, llm: 0, errors: [], warnings: 0 },
    problems: [],
    notes: [],
  };
  let config: AvpConfig;
  try {
    config = await loadConfig({ cwd: opts.cwd, projectRoot, env });
  } catch (e) {
    config = defaultConfig();
    report.config.error = errorMessage(e);
    report.problems.push(`the configuration is invalid: ${errorMessage(e).split('\n')[0]}`);
  }
  if (config.disabled) report.notes.push('avp is disabled (AVP_DISABLE / "disabled": true): every hook call passes');
  if (config.policy) {
    const required = config.policy.required.join(', ') || 'no validator';
    report.notes.push(
      `managed policy (${config.policy.files.join(', ')}): requires ${required}`,
      ...config.policy.notes,
    );
  }

  const { discover } = await import('../validator/discover.ts');
  const found = await discover({ projectRoot, env });
  // A validator config switches off never runs: it needs no judge, and its load error blocks nothing.
  const off = (v: { id?: string; name?: string }) =>
    config.disabled || (!!v.name && isDisabled(config, v.id ?? v.name, v.name));
  const running = found.validators.filter((v) => !off(v));
  const errors = found.errors.filter((e) => !off(e));
  const llm = running.filter((v) => !v.spec.script && !v.notRun);
  const disabled = found.validators.length - running.length + found.errors.length - errors.length;
  report.validators = {
    loaded: found.validators.length,
    script: found.validators.length - found.validators.filter((v) => !v.spec.script).length,
    llm: found.validators.filter((v) => !v.spec.script).length,
    ...(disabled ? { disabled } : {}),
    errors: errors.map((e) => ({
      path: e.path,
      ...(e.line ? { line: e.line } : {}),
      message: e.message,
      fix: e.fix,
    })),
    warnings: found.warnings.length,
  };
  if (errors.length)
    report.problems.push(`${errors.length} validator(s) fail to load (each blocks the events it would see)`);
  if (!found.validators.length && !found.errors.length)
    report.notes.push(
      'no validators installed: `avp init` installs the recommended ones, `avp new <name>` creates one',
    );

  await checkJudgesInto(report, llm, config, opts);

  const { agentStatuses } = await import('./doctor.ts');
  report.agents = await agentStatuses(projectRoot, env, avpEvents);
  for (const a of report.agents) {
    for (const f of a.files)
      report.hooks.push({ agent: a.agent, file: f.file, events: f.events, ...(f.managed ? { managed: true } : {}) });
    report.problems.push(...a.problems);
  }
  // No hook, nothing is checked: that is broken, whatever else works.
  if (!report.hooks.length)
    report.problems.push('no hook installed: no agent calls avp; run `avp init` (or `avp init --agent <name>`)');
  const { hooksOff } = await import('../trust/hook-switches.ts');
  for (const h of report.hooks) {
    // A managed file's switches are the ones that keep hooks on (`allowManagedHooksOnly` admits its own).
    if (h.managed) continue;
    const off = hooksOff({ path: h.file });
    if (off) report.problems.push(`${h.file} calls avp, but ${h.agent} may not run it: ${off}`);
  }
  return report;
}

/**
 * Checks every judge in use — the default, per-validator routing, `judge.command`, `AVP_JUDGE*`, `AVP_CLAUDE_BIN`, API
 * keys — and probes each distinct one once. A broken judge is a problem when a validator needs it or the user
 * configured it; auto-detection finding nothing is only a note while no LLM validator is installed.
 */
async function checkJudgesInto(
  report: DoctorReport,
  llm: Validator[],
  config: AvpConfig,
  opts: { env: NodeJS.ProcessEnv; probe: boolean; timeoutMs: number },
): Promise<void> {
  const { env } = opts;
  const [{ checkJudges }, { modelFor }, { backendFor }] = await Promise.all([
    import('../judges/judge-check.ts'),
    import('../judges/backends.ts'),
    import('../judges/select.ts'),
  ]);
  const checks = checkJudges(llm, config, env, report.projectRoot);
  const probes = new Map<string, Promise<ProbeResult>>();
  for (const [i, c] of checks.entries()) {
    const d = c.detection;
    const model = d && d.backend !== 'command' ? modelFor(d.backend, undefined, config) : undefined;
    const entry: DoctorJudge = {
      ...(d ? { backend: d.backend, reason: d.reason } : {}),
      ...(model ? { model } : {}),
      validators: c.validators,
      ...(c.problem ? { problem: c.problem } : {}),
    };
    if (i === 0) {
      if (d) Object.assign(report.judge, { backend: d.backend, reason: d.reason, ...(model ? { model } : {}) });
      if (c.problem) {
        if (d) report.judge.problem = c.problem;
        else report.judge.error = { message: c.problem.message, fix: c.problem.fix };
      }
    }
    const users = c.validators.length ? ` (${c.validators.join(', ')})` : '';
    if (c.problem) {
      if (c.validators.length)
        report.problems.push(
          `${c.validators.length} LLM validator(s) have no judge that works${users}: ${c.problem.message}`,
        );
      else if (c.configured) report.problems.push(`the configured judge cannot work: ${c.problem.message}`);
      else report.notes.push(`no LLM judge available (only needed by LLM validators): ${c.problem.message}`);
    } else if (opts.probe && d && d.backend !== 'command') {
      const { probeBackend } = await import('../judges/probe.ts');
      const key = `${d.backend}\0${d.bin ?? ''}\0${model}`;
      if (!probes.has(key))
        probes.set(key, probeBackend(d, model!, env, { timeoutMs: opts.timeoutMs, cwd: report.projectRoot }));
      entry.probe = await probes.get(key)!;
      if (i === 0) report.judge.probe = entry.probe;
      if (!entry.probe.ok)
        report.problems.push(`the ${d.backend} judge${users} does not answer: ${entry.probe.detail}`);
    }
    report.judges.push(entry);
  }
  for (const v of llm) {
    const routed = backendFor(v, config);
    const backend = routed === 'auto' ? (report.judge.backend ?? 'none') : routed;
    const model = backend === 'command' || backend === 'none' ? undefined : modelFor(backend, v, config);
    report.judge.validators.push({ id: v.id, backend, ...(model ? { model } : {}) });
  }
}
