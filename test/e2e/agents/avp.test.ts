/**
 * avp end to end in the real Codex, Gemini CLI, Qwen Code and Factory Droid CLIs, offline: each runs in a temp
 * project where `avp init --agent NAME` installed avp's hooks and the catalog's recommended validators (no-secrets,
 * dangerous-commands …), plus a script Stop validator that never passes. The scripted model (1) writes a hard-coded
 * key — avp blocks it and its reason reaches the model's next request; (2) runs `rm -rf ~` — avp denies it before it
 * runs (the temp HOME's sentinel survives; an `rm` guard on PATH would record the attempt); (3) ends the turn — the
 * Stop validator blocks, and the loop guard lets the agent stop after `maxStopBlocks` (3) blocks. All four at once.
 */
import { beforeAll, describe, expect } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkOrKnownBug } from '../../support/known-bug.ts';
import { startGeminiServer } from '../../support/gemini-server.ts';
import { startOpenAIServer } from '../../support/openai-server.ts';
import { startResponsesServer } from '../../support/responses-server.ts';
import type { RecordedRequest } from '../../support/scripted-server.ts';
import type { AgentProject, AgentRun } from './agent-support.ts';
import {
  avpStepAt,
  DONE_TEXT,
  installAvp,
  MAX_STOP_BLOCKS,
  PROMPT,
  KEY_FILE,
  runLog,
  SENTINEL,
  sessionRecords,
} from './avp-support.ts';
import { CODEX_BIN, codexModel, codexToolResults, makeCodexProject, runCodex } from './codex-support.ts';
import { DROID_BIN, droidModel, isDroidTurn, makeDroidProject, runDroid } from './droid-support.ts';
import {
  GEMINI_BIN,
  geminiModel,
  geminiToolResults,
  isGeminiTurn,
  makeGeminiProject,
  runGemini,
} from './gemini-support.ts';
import { isQwenTurn, makeQwenProject, QWEN_BIN, qwenModel, runQwen } from './qwen-support.ts';
import { agentOutcomes, carries, ONLY, said } from './outcome-support.ts';
import { chatToolResults } from './turn-support.ts';

/**
 * What does not work yet, found by this test and left to the owners of those parts. Such a check runs as
 * `test.failing`: it passes while the bug is there and fails once it is fixed, so the entry must then go.
 */
const KNOWN_BUGS: Record<string, Array<'write' | 'rm' | 'stop'>> = {};
const RUN_TIMEOUT_MS = 150_000;

interface Outcome {
  project: AgentProject;
  run: AgentRun;
  rmLog: string;
  /** Conversation requests, each with the number of tool results it carries. */
  turns: Array<{ body: any; toolResults: number }>;
}

interface AgentCase {
  agent: 'codex' | 'gemini' | 'qwen' | 'droid';
  bin: string;
  /** Whether the key never reaches the disk (refused before the write) or is reported after it (after-tool block). */
  refusedBeforeWrite: boolean;
  start(): Promise<Outcome>;
}

async function drive<S extends { requests: RecordedRequest[]; close(): Promise<void> }>(
  server: S,
  project: AgentProject,
  agent: string,
  run: () => Promise<AgentRun>,
  turn: (r: RecordedRequest) => boolean,
  toolResults: (body: any) => number,
): Promise<Outcome> {
  try {
    const { rmLog } = installAvp(project, agent);
    const result = await run();
    const turns = server.requests.filter(turn).map((r) => ({ body: r.body, toolResults: toolResults(r.body) }));
    return { project, run: result, rmLog, turns };
  } finally {
    await server.close();
  }
}

const CASES: AgentCase[] = [
  {
    agent: 'codex',
    bin: CODEX_BIN,
    // Codex sends a file write as a shell `apply_patch`, judged at its PreToolUse: refused before it is written.
    refusedBeforeWrite: true,
    async start() {
      let root = '';
      const server = await startResponsesServer((req) => codexModel(root, avpStepAt)(req));
      const project = makeCodexProject(server.url, { avpInit: true });
      root = project.root;
      const run = () => runCodex(project, PROMPT, RUN_TIMEOUT_MS);
      return drive(server, project, 'codex', run, () => true, codexToolResults);
    },
  },
  {
    agent: 'gemini',
    bin: GEMINI_BIN,
    // no-secrets-before judges the write at its PreToolUse: refused before it is written.
    refusedBeforeWrite: true,
    async start() {
      let root = '';
      const server = await startGeminiServer((req) => geminiModel(root, avpStepAt)(req));
      const project = makeGeminiProject(server.url, { avpInit: true });
      root = project.root;
      // A Stop series that never ended (Gemini's continuation taken for a user prompt) would loop: 60 s bounds it.
      const run = () => runGemini(project, PROMPT, 60_000);
      return drive(server, project, 'gemini', run, isGeminiTurn, geminiToolResults);
    },
  },
  {
    agent: 'qwen',
    bin: QWEN_BIN,
    // no-secrets-before judges the write at its PreToolUse: refused before it is written.
    refusedBeforeWrite: true,
    async start() {
      let root = '';
      const server = await startOpenAIServer((req) => qwenModel(root, avpStepAt)(req));
      const project = makeQwenProject(server.url, { avpInit: true });
      root = project.root;
      const run = () => runQwen(project, PROMPT, RUN_TIMEOUT_MS);
      return drive(server, project, 'qwen', run, (r) => isQwenTurn(r.body), chatToolResults);
    },
  },
  {
    agent: 'droid',
    bin: DROID_BIN,
    // no-secrets-before judges the write at its PreToolUse: refused before it is written.
    refusedBeforeWrite: true,
    async start() {
      let root = '';
      const server = await startOpenAIServer((req) => droidModel(root, avpStepAt)(req));
      const project = makeDroidProject(server.url, { avpInit: true });
      root = project.root;
      const run = () => runDroid(project, PROMPT, RUN_TIMEOUT_MS);
      return drive(server, project, 'droid', run, (r) => isDroidTurn(r.body), chatToolResults);
    },
  },
];

const runs = (c: AgentCase) => existsSync(c.bin) && (!ONLY || ONLY.includes(c.agent));
const { startAll, outcome } = agentOutcomes<AgentCase, Outcome>((c) => c.agent);

beforeAll(() => startAll(CASES.filter(runs), (c) => c.start()), 240_000);
/** `test`, or `test.failing` for a check KNOWN_BUGS lists for this agent. */
const check = (agent: string, which: 'write' | 'rm' | 'stop') => checkOrKnownBug(!!KNOWN_BUGS[agent]?.includes(which));

for (const c of CASES) {
  describe.skipIf(!runs(c))(`avp in the real ${c.agent} CLI (avp init --agent ${c.agent})`, () => {
    check(c.agent, 'write')(
      "a write of a hard-coded key is blocked by no-secrets; avp's reason reaches the model's next request",
      () => {
        const o = outcome(c);
        const before = o.turns.filter((t) => t.toolResults === 0);
        const after = o.turns.filter((t) => t.toolResults === 1);
        expect(before.length, said(o)).toBeGreaterThan(0);
        expect(after.length, said(o)).toBeGreaterThan(0);
        for (const t of before) carries(t.body, '[no-secrets').toBe(false);
        carries(after[0]!.body, '[no-secrets').toBe(true);
        carries(after[0]!.body, KEY_FILE).toBe(true);
        const written = existsSync(join(o.project.root, KEY_FILE));
        expect(written).toBe(!c.refusedBeforeWrite);
        const runs = runLog(o.project).filter((r) => /^no-secrets(?:-before)?$/.test(String(r.validator ?? r.name)));
        expect(runs.length, 'avp logged the no-secrets run').toBeGreaterThan(0);
      },
    );

    // `rm -rf ~` takes avp's own state and the agent's hook settings with it: avp's guard refuses it first.
    check(c.agent, 'rm')("a shell `rm -rf ~` is denied by avp's guard before it runs", () => {
      const o = outcome(c);
      const after = o.turns.filter((t) => t.toolResults === 2);
      expect(after.length, said(o)).toBeGreaterThan(0);
      carries(after[0]!.body, 'avp refuses this command before it runs').toBe(true);
      expect(existsSync(join(o.project.home, SENTINEL))).toBe(true);
      expect(existsSync(o.rmLog), 'rm was asked to delete the temp HOME: the hook did not deny it').toBe(false);
    });

    check(c.agent, 'stop')('a Stop validator that keeps failing ends within the loop guard', () => {
      const o = outcome(c);
      expect(o.run.timedOut, said(o)).toBe(false);
      expect(o.run.code, said(o)).toBe(0);
      const records = sessionRecords(o.project);
      expect(
        records.filter((r) => r.t === 'stop-block'),
        said(o),
      ).toHaveLength(MAX_STOP_BLOCKS);
      expect(records.filter((r) => r.t === 'stop-released')).toHaveLength(1);
      // The model was asked again after each block, with the Stop validator's reason, and then no more.
      const ends = o.turns.filter((t) => t.toolResults >= 2);
      expect(ends.length).toBe(1 + MAX_STOP_BLOCKS);
      carries(ends.at(-1)!.body, 'always-fail-stop').toBe(true);
      expect(o.run.stdout).toContain(DONE_TEXT);
    });
  });
}
