/**
 * The one object a hook call's stages share (hook/pipeline.ts). Each field says which stage sets it; a stage reads only
 * what earlier stages set. The event is the adapter's, as normalized, and is never replaced: what later stages learn
 * about the files the call changed (rebuilt for the guard, the turn's or a shell command's changes, the file on disk
 * after an observe-only edit, completed contents) goes into `files`, and `event` is the normalized event with them.
 */
import type { AgentAdapter, Decision, EventAbility } from '../agents/types.ts';
import type { AvpConfig } from '../config/types.ts';
import type { AvpError } from '../errors.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import type { Report, ValidatorRun } from '../runner/types.ts';
import type { OnceState } from '../session/session.ts';
import type { stopRepeats } from '../session/shown-findings.ts';
import type { TrustView } from '../trust/hook-view.ts';
import type { LoadError, Validator } from '../validator/types.ts';
import type { Engine } from './stages/prepare.ts';

export interface HookAnswer {
  stdout: string;
  exitCode: number;
  /** The answer's own stderr: the refusal's text on agents that read exit 2 and stderr (Windsurf, Kiro). */
  stderr?: string;
  /** Notes for stderr (never shown to the model): a log that could not be written, state problems. */
  notes: string[];
}

/** A stage: ends the call with a decision, or returns nothing and the next stage runs. */
export type Stage = (ctx: HookContext) => Promise<Decision | undefined> | Decision | undefined;

/** AVP_PROFILE=1: per-stage milliseconds, for stderr. */
export type Profiler = ReturnType<typeof profiler>;

export class HookContext {
  /** The agent's event as its adapter normalized it (normalize). */
  readonly normalized: HookEvent;
  /** What the agent can do with an answer to this event (normalize). */
  readonly ability: EventAbility | undefined;
  /** The files the call changed, as the stages have learned them so far (guard, session, observed edit, prepare). */
  files: FileChange[];
  /** The state the user accepted, and the notice of pending changes (accepted state; unset after the kill switch). */
  view!: TrustView;
  /** The configuration, with its load problem kept as avp's own blocking error (config). */
  config!: AvpConfig;
  problem?: AvpError;
  /** What the managed policy refused, said on every answer (config). */
  policyNotes: string[] = [];
  /** Whether any validator or load error was found; unset until discovery ran (discover). */
  installed?: boolean;
  /** Every enabled validator, and the load errors (discover). */
  active: Validator[] = [];
  errors: LoadError[] = [];
  /** The call's key in the call counter and the run log (discover). */
  call = '';
  /** Findings carried from an earlier edit, as runs at the main agent's Stop (carried findings). */
  carried: ValidatorRun[] = [];
  /** The validators and load errors this event matches; the once-validators this process claimed (match). */
  matched: Validator[] = [];
  loadErrors: LoadError[] = [];
  once?: { state: OnceState; mine: Set<string> };
  /** An observe-only after-event of a file tool, and the validators its PreToolUse already judged (observed edit). */
  observing = false;
  judgedAtPre: Validator[] = [];
  /** The modules that run and report validators, loaded only once something matched (prepare). */
  engine!: Engine;
  /** The runs: all of them, and those of this event alone, for the run log (run). */
  runs: ValidatorRun[] = [];
  logged: ValidatorRun[] = [];
  report!: Report;
  /** How many findings of this edit are carried now (record observed). */
  carriedNow = 0;
  /** The Stop loop guard's word on this answer, and the findings already shown at an earlier Stop (Stop guard). */
  stop: { systemMessage?: string; noBlock?: boolean } = {};
  repeats?: ReturnType<typeof stopRepeats>;
  /** The decision, and the full report to write when the answer summarises (decide). */
  decision!: Decision;
  fullReport?: string;
  reportPath?: string;
  /** Notes for stderr of a call that ran to the end (a log that could not be written, state problems). */
  readonly notes: string[] = [];
  private withFiles?: HookEvent;

  constructor(
    readonly adapter: AgentAdapter,
    readonly env: NodeJS.ProcessEnv,
    readonly startedAt: number,
    readonly profile: Profiler | undefined,
    normalized: HookEvent,
  ) {
    this.normalized = normalized;
    this.ability = adapter.abilities[normalized.event];
    this.files = normalized.files;
  }

  /** The event with the files known so far: what matching, judges, logs and the decision see. */
  get event(): HookEvent {
    if (this.files === this.normalized.files) return this.normalized;
    if (this.withFiles?.files !== this.files) this.withFiles = { ...this.normalized, files: this.files };
    return this.withFiles;
  }
}

/** Wall and CPU milliseconds (user + system, this process) per stage: on a busy machine the CPU figure is steadier. */
export function profiler() {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const marks: string[] = [];
  return {
    mark(name: string) {
      const now = performance.now();
      const cpu = process.cpuUsage(lastCpu);
      const rss = (process.memoryUsage.rss() / 2 ** 20).toFixed(1);
      marks.push(
        `${name} ${(now - last).toFixed(2)} (cpu ${((cpu.user + cpu.system) / 1000).toFixed(2)}, rss ${rss} MB)`,
      );
      last = now;
      lastCpu = process.cpuUsage();
    },
    done: () => {
      const cpu = process.cpuUsage();
      const total = ((cpu.user + cpu.system) / 1000).toFixed(1);
      return `avp profile (ms): ${marks.join(', ')}; since process start ${performance.now().toFixed(1)} (cpu ${total})`;
    },
  };
}
