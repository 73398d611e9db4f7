/**
 * avp end to end in the real OpenCode, GitHub Copilot and Cline CLIs, offline (the other agents are in avp.test.ts):
 * a temp project where `avp init --agent NAME` wrote avp's hooks (OpenCode: the plugin `.opencode/plugins/avp.ts`;
 * Copilot: `.github/hooks/avp.json`; Cline: `.clinerules/hooks/<Event>`) and the catalog's recommended validators,
 * plus a script Stop validator that never passes. The scripted model (1) writes a hard-coded key — refused before
 * the tool runs, the file is never written and avp's reason reaches the model's next request; (2) runs `rm -rf ~` —
 * denied before it runs (the temp HOME's sentinel survives; an `rm` guard on PATH would record the attempt); (3) ends
 * the turn — the Stop validator blocks, and the loop guard lets the agent stop after `maxStopBlocks` (3) blocks
 * (OpenCode: see KNOWN_BUGS; Cline runs in yolo mode, where its `submit_and_exit` is the Stop). All at once.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkOrKnownBug } from '../../support/known-bug.ts';
import { type OpenAIReply, startOpenAIServer } from '../../support/openai-server.ts';
import type { ScriptFn } from '../../support/scripted-server.ts';
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
import { COPILOT_BIN, copilotModel, isCopilotTurn, makeCopilotProject, runCopilot } from './copilot-support.ts';
import { isOpenCodeTurn, makeOpenCodeProject, OPENCODE_BIN, openCodeModel, runOpenCode } from './opencode-support.ts';
import { CLINE_BIN, clineModel, isClineTurn, makeClineProject, runCline } from './cline-support.ts';
import { agentOutcomes, carries, ONLY, said } from './outcome-support.ts';
import { chatToolResults } from './turn-support.ts';

/**
 * What does not work yet, found by this test. Such a check runs as `test.failing`: it passes while the problem is
 * there and fails once it is gone, so the entry must then go.
 */
type Check = 'write' | 'rm' | 'stop-judged' | 'stop';
const KNOWN_BUGS: Record<string, Check[]> = {
  // `opencode run` exits at its session's first idle: avp blocks the Stop (recorded), but the plugin's follow-up
  // prompt never runs, and no plugin hook can hold the command open. In a long-lived OpenCode (`opencode serve`, the
  // TUI's server) the follow-up runs and the loop guard ends it: opencode-serve.test.ts (docs/agents-e2e.md).
  opencode: ['stop'],
};
const RUN_TIMEOUT_MS = 150_000;

interface Outcome {
  project: AgentProject;
  run: AgentRun;
  rmLog: string;
  /** Conversation requests, each with the number of tool results it carries. */
  turns: Array<{ body: any; toolResults: number }>;
}

interface AgentCase {
  agent: 'opencode' | 'copilot' | 'cline';
  bin: string;
  start(): Promise<Outcome>;
}

async function drive(
  agent: AgentCase['agent'],
  make: (url: string) => AgentProject,
  model: (root: string) => ScriptFn<OpenAIReply>,
  run: (project: AgentProject) => Promise<AgentRun>,
  turn: (body: any) => boolean,
): Promise<Outcome> {
  let root = '';
  const server = await startOpenAIServer((req) => model(root)(req));
  try {
    const project = make(server.url);
    root = project.root;
    const { rmLog } = installAvp(project, agent);
    // Copilot's `create` refuses a file whose folder is missing: with `src/` there, only avp keeps the key off disk.
    mkdirSync(join(project.root, 'src'), { recursive: true });
    const result = await run(project);
    const turns = server.requests
      .filter((r) => turn(r.body))
      .map((r) => ({ body: r.body, toolResults: chatToolResults(r.body) }));
    return { project, run: result, rmLog, turns };
  } finally {
    await server.close();
  }
}

const CASES: AgentCase[] = [
  {
    agent: 'opencode',
    bin: OPENCODE_BIN,
    start: () =>
      drive(
        'opencode',
        makeOpenCodeProject,
        (root) => openCodeModel(root, avpStepAt),
        (p) => runOpenCode(p, PROMPT, RUN_TIMEOUT_MS),
        isOpenCodeTurn,
      ),
  },
  {
    agent: 'copilot',
    bin: COPILOT_BIN,
    start: () =>
      drive(
        'copilot',
        makeCopilotProject,
        (root) => copilotModel(root, avpStepAt),
        (p) => runCopilot(p, PROMPT, RUN_TIMEOUT_MS),
        isCopilotTurn,
      ),
  },
  {
    agent: 'cline',
    bin: CLINE_BIN,
    start: () =>
      drive(
        'cline',
        makeClineProject,
        (root) => clineModel(root, avpStepAt),
        (p) => runCline(p, PROMPT, RUN_TIMEOUT_MS),
        isClineTurn,
      ),
  },
];

const wanted = (c: AgentCase) => existsSync(c.bin) && (!ONLY || ONLY.includes(c.agent));
const { startAll, outcome } = agentOutcomes<AgentCase, Outcome>((c) => c.agent);

beforeAll(() => startAll(CASES.filter(wanted), (c) => c.start()), 200_000);
const check = (agent: string, which: Check) => checkOrKnownBug(!!KNOWN_BUGS[agent]?.includes(which));

for (const c of CASES) {
  describe.skipIf(!wanted(c))(`avp in the real ${c.agent} CLI (avp init --agent ${c.agent})`, () => {
    check(c.agent, 'write')(
      "a write of a hard-coded key is refused before it is written; avp's reason reaches the model",
      () => {
        const o = outcome(c);
        const before = o.turns.filter((t) => t.toolResults === 0);
        const after = o.turns.filter((t) => t.toolResults === 1);
        expect(before.length, said(o)).toBeGreaterThan(0);
        expect(after.length, said(o)).toBeGreaterThan(0);
        for (const t of before) carries(t.body, '[no-secrets').toBe(false);
        carries(after[0]!.body, '[no-secrets').toBe(true);
        carries(after[0]!.body, KEY_FILE).toBe(true);
        expect(existsSync(join(o.project.root, KEY_FILE)), 'the key reached the disk').toBe(false);
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

    test('the run ends on its own', () => {
      const o = outcome(c);
      expect(o.run.timedOut, said(o)).toBe(false);
      expect(o.run.code, said(o)).toBe(0);
      expect(o.run.stdout).toContain(DONE_TEXT);
    });

    check(c.agent, 'stop-judged')('avp judged its end of turn (a stop-block at the first end)', () => {
      const o = outcome(c);
      expect(sessionRecords(o.project).filter((r) => r.t === 'stop-block').length, said(o)).toBeGreaterThan(0);
    });

    check(c.agent, 'stop')('a Stop validator that keeps failing ends within the loop guard', () => {
      const o = outcome(c);
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
    });
  });
}
