/**
 * avp's Stop follow-up in a long-lived OpenCode, end to end with the real CLI, offline. `opencode run` alone exits at
 * its session's first idle, before the plugin's follow-up runs (avp-part2.test.ts keeps that as a known bug); users
 * keep OpenCode open in the TUI, which runs on OpenCode's server, or as `opencode serve`. This test starts `opencode
 * serve` in a temp project where `avp init --agent opencode` wrote the plugin (plus the never-passing Stop validator),
 * sends the prompt with `opencode run --attach <server>`, and checks on the server: every blocked end of turn comes
 * back to the model as avp's reason, the loop guard lets the fourth end of turn through, the session then stays idle,
 * and once the server's process group is stopped, no process the test started is left.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { startOpenAIServer } from '../../support/openai-server.ts';
import { type AgentProject, type AgentRun, groupAlive, processesWithHome } from './agent-support.ts';
import { avpStepAt, DONE_TEXT, installAvp, MAX_STOP_BLOCKS, PROMPT, sessionRecords } from './avp-support.ts';
import {
  isOpenCodeTurn,
  makeOpenCodeProject,
  OPENCODE_BIN,
  openCodeModel,
  runOpenCode,
  type OpenCodeServer,
  startOpenCodeServer,
} from './opencode-support.ts';
import { chatToolResults } from './turn-support.ts';

/**
 * Bounds for a loaded machine; each wait ends as soon as its condition holds (a normal run takes 20 to 50 s, most of
 * it OpenCode's own start-up). Worst case, every bound spent: about 200 s, inside BEFORE_ALL_MS, so a failing run
 * still stops the server and removes its folders.
 */
const RUN_TIMEOUT_MS = 100_000;
const RELEASE_WAIT_MS = 30_000;
const IDLE_WAIT_MS = 15_000;
const GONE_WAIT_MS = 10_000;
/** After the release, how long the session must stay idle with no new model request. */
const QUIET_MS = 1_500;
const BEFORE_ALL_MS = 210_000;

interface Outcome {
  project: AgentProject;
  run: AgentRun;
  /** Conversation requests in order, each with its number of tool results. */
  turns: Array<{ body: any; toolResults: number }>;
  released: boolean;
  /** The session statuses (`GET /session/status`) right after the release and after QUIET_MS. */
  statusAtRelease: any;
  statusAfterQuiet: any;
  requestsAtRelease: number;
  requestsAfterQuiet: number;
  /** While the server was still up (after `run --attach` had exited): its group was alive. */
  upAfterRun: boolean;
  /** The process scan found the server by its temp HOME before it was stopped (so an empty scan after means gone). */
  seenBeforeStop: boolean;
  stopped: string;
  groupLeft: boolean;
  leftBehind: number[];
  serverLog: string;
}

async function until(ok: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ok()) return true;
    await Bun.sleep(200);
  }
  return ok();
}

/** What afterAll must stop and remove whatever happened in beforeAll (even past its time limit). */
let started: { project?: AgentProject; server?: OpenCodeServer } = {};

async function drive(): Promise<Outcome> {
  let root = '';
  const model = await startOpenAIServer((req) => openCodeModel(root, avpStepAt)(req));
  try {
    const project = makeOpenCodeProject(model.url);
    started.project = project;
    root = project.root;
    installAvp(project, 'opencode');
    const server = await startOpenCodeServer(project);
    started.server = server;
    try {
      const run = await runOpenCode(project, PROMPT, RUN_TIMEOUT_MS, server.url);
      const upAfterRun = groupAlive(server.pid);
      const released = await until(() => sessionRecords(project).some((r) => r.t === 'stop-released'), RELEASE_WAIT_MS);
      const idle = async () => Object.keys(await server.get('/session/status')).length === 0;
      await until(idle, IDLE_WAIT_MS);
      const statusAtRelease = await server.get('/session/status');
      const requestsAtRelease = model.requests.length;
      await Bun.sleep(QUIET_MS);
      const statusAfterQuiet = await server.get('/session/status');
      const requestsAfterQuiet = model.requests.length;
      const seenBeforeStop = processesWithHome(project.home).includes(server.pid);
      const stopped = await server.stop();
      const groupLeft = !(await until(() => !groupAlive(server.pid), GONE_WAIT_MS));
      let leftBehind = processesWithHome(project.home);
      if (leftBehind.length) {
        await until(() => processesWithHome(project.home).length === 0, GONE_WAIT_MS);
        leftBehind = processesWithHome(project.home);
      }
      const turns = model.requests
        .filter((r) => isOpenCodeTurn(r.body))
        .map((r) => ({ body: r.body, toolResults: chatToolResults(r.body) }));
      return {
        project,
        run,
        turns,
        released,
        statusAtRelease,
        statusAfterQuiet,
        requestsAtRelease,
        requestsAfterQuiet,
        upAfterRun,
        seenBeforeStop,
        stopped,
        groupLeft,
        leftBehind,
        serverLog: server.output(),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await model.close();
  }
}

let outcome: Outcome | Error | undefined;

beforeAll(async () => {
  if (existsSync(OPENCODE_BIN)) outcome = await drive().catch((e: Error) => e);
}, BEFORE_ALL_MS);

afterAll(async () => {
  const { project, server } = started;
  started = {};
  await server?.stop();
  if (process.env.AVP_E2E_KEEP !== '1') project?.cleanup();
});

function got(): Outcome {
  if (!outcome) throw new Error('opencode serve did not run');
  if (outcome instanceof Error) throw outcome;
  return outcome;
}

const said = (o: Outcome) =>
  `run --attach: exit ${o.run.code}\nstdout: ${o.run.stdout.slice(-1000)}\nstderr: ${o.run.stderr.slice(-1500)}\n` +
  `server: ${o.serverLog.slice(-2000)}\nsession records: ${sessionRecords(o.project)
    .map((r) => r.t)
    .join(', ')}`;
/** The last message of a model request, as text. */
const lastMessage = (body: any) => JSON.stringify(body?.messages?.at(-1) ?? null);
/** The end-of-turn requests: every conversation request after the two tool steps (key write, `rm -rf ~`). */
const ends = (o: Outcome) => o.turns.filter((t) => t.toolResults >= 2);

describe.skipIf(!existsSync(OPENCODE_BIN))('avp in a long-lived OpenCode (opencode serve + run --attach)', () => {
  test('`opencode run --attach` returns at the first idle; the server stays up and goes on', () => {
    const o = got();
    expect(o.run.timedOut, said(o)).toBe(false);
    expect(o.run.code, said(o)).toBe(0);
    expect(o.run.stdout, said(o)).toContain(DONE_TEXT);
    expect(o.upAfterRun, 'the server was up after run --attach exited').toBe(true);
  });

  test("every blocked end of turn comes back to the model as avp's Stop reason, in its next request", () => {
    const o = got();
    const series = ends(o);
    expect(series.length, said(o)).toBeGreaterThan(1);
    // The model's own end of turn carries no Stop reason; each follow-up is a user message carrying avp's.
    expect(lastMessage(series[0]!.body)).not.toContain('always-fail-stop');
    for (const t of series.slice(1)) {
      const last = t.body.messages.at(-1);
      expect(last.role, said(o)).toBe('user');
      expect(String(last.content)).toContain('avp blocked Stop');
      expect(String(last.content)).toContain('[always-fail-stop]');
    }
  });

  test('the loop guard ends the series: 3 blocks, 1 release, 1 + 3 end-of-turn requests', () => {
    const o = got();
    expect(o.released, said(o)).toBe(true);
    const records = sessionRecords(o.project);
    expect(
      records.filter((r) => r.t === 'stop-block'),
      said(o),
    ).toHaveLength(MAX_STOP_BLOCKS);
    expect(records.filter((r) => r.t === 'stop-released')).toHaveLength(1);
    expect(ends(o).length, said(o)).toBe(1 + MAX_STOP_BLOCKS);
  });

  test('after the release OpenCode stops: the session stays idle and the model is asked nothing more', () => {
    const o = got();
    expect(o.released, said(o)).toBe(true);
    expect(o.statusAtRelease, said(o)).toEqual({});
    expect(o.statusAfterQuiet, said(o)).toEqual({});
    expect(o.requestsAfterQuiet, said(o)).toBe(o.requestsAtRelease);
  });

  test('the server and every process it started are gone once its process group is stopped', () => {
    const o = got();
    // The scan reads /proc (Linux); it must have seen the running server, or an empty scan afterwards proves nothing.
    if (existsSync('/proc')) expect(o.seenBeforeStop, 'the process scan found the running server').toBe(true);
    expect(o.groupLeft, `processes left in the server's group (it ended with ${o.stopped})`).toBe(false);
    expect(o.leftBehind, 'processes with the temp HOME still running').toEqual([]);
  });
});
