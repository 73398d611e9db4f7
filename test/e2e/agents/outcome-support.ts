/**
 * The runs an e2e agent test starts together before its checks: each outcome (or the error its start threw, thrown
 * again by every check that reads it), what the run printed for a failure message, and what a request carries.
 */
import { afterAll, expect } from 'bun:test';
import type { AgentProject, AgentRun } from './agent-support.ts';

/** What every outcome has: the temp project it ran in and the agent's run. */
export interface Ran {
  project: AgentProject;
  run: AgentRun;
}

/** `AVP_E2E_AGENTS=droid,qwen` runs only those agents (one agent's fix need not load the machine with all). */
export const ONLY = process.env.AVP_E2E_AGENTS?.split(',').filter(Boolean);

/**
 * The outcomes by key, `name` saying which run a key is. The temp projects are removed after the file's checks,
 * unless AVP_E2E_KEEP=1 keeps them to look at.
 */
export function agentOutcomes<K, O extends Ran>(name: (key: K) => string) {
  const outcomes = new Map<K, O | Error>();
  afterAll(() => {
    if (process.env.AVP_E2E_KEEP === '1') return;
    for (const o of outcomes.values()) if (!(o instanceof Error)) o.project.cleanup();
  });
  return {
    /** Starts every run at once; a run that throws is kept as its error. */
    startAll: (keys: K[], start: (key: K) => Promise<O>) =>
      Promise.all(keys.map(async (k) => outcomes.set(k, await start(k).catch((e: Error) => e)))),
    /** The run's outcome when it finished, else undefined (its checks report why). */
    finished: (key: K): O | undefined => {
      const o = outcomes.get(key);
      return o instanceof Error ? undefined : o;
    },
    /** The run's outcome, for a check; throws when it did not run or its start failed. */
    outcome(key: K): O {
      const o = outcomes.get(key);
      if (!o) throw new Error(`${name(key)} did not run`);
      if (o instanceof Error) throw o;
      return o;
    },
  };
}

/** What the run printed, for a failure message. */
export const said = (o: Ran) =>
  `exit ${o.run.code}\nstdout: ${o.run.stdout.slice(-1500)}\nstderr: ${o.run.stderr.slice(-1500)}`;

/** Whether a request carries `needle`, said without dumping the request (agents' requests are tens of KB). */
export const carries = (body: any, needle: string) =>
  expect(JSON.stringify(body).includes(needle), `the request carries ${needle}`);
