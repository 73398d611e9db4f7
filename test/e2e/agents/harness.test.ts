/**
 * End-to-end harness for the other agents: the real Codex, Gemini CLI, Qwen Code and Factory Droid CLIs, offline,
 * each against a loopback model server speaking its wire API, with a recording hook (not avp) wired into its hook
 * config. For each CLI: (1) it completes a scripted turn that writes a file and runs a shell command; (2) its hooks
 * fire and the recorded inputs have the shape of the captured fixtures; (3) a blocking answer from the hook stops
 * the tool, and the block reason reaches the model's next request. All four run at once, in one shared setup.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGeminiServer } from '../../support/gemini-server.ts';
import { startOpenAIServer } from '../../support/openai-server.ts';
import { startResponsesServer } from '../../support/responses-server.ts';
import type { RecordedRequest } from '../../support/scripted-server.ts';
import { type AgentProject, type AgentRun, BLOCK_MARKER, type HookRecord, readRecords } from './agent-support.ts';
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
import { agentOutcomes, said } from './outcome-support.ts';
import { isQwenTurn, makeQwenProject, QWEN_BIN, qwenModel, runQwen } from './qwen-support.ts';
import {
  captureFixtures,
  chatToolResults,
  FINAL_TEXT,
  loadFixtures,
  PROMPT,
  SHELL_COMMAND,
  unmatchedFixtures,
  WRITTEN_FILE,
  WRITTEN_TEXT,
} from './turn-support.ts';

/** Unique enough to be found in a request body and nowhere else. */
const REASON = 'Blocked by the e2e hook (reason-7f3a): run something else.';
const REASON_TOKEN = 'reason-7f3a';
const RUN_TIMEOUT_MS = 150_000;

interface Outcome {
  project: AgentProject;
  run: AgentRun;
  records: HookRecord[];
  /** Bodies of the conversation requests, each with the number of tool results it carries. */
  turns: Array<{ body: any; toolResults: number }>;
}

interface AgentCase {
  name: string;
  /** Folder under test/fixtures/hook/. */
  fixtures: string;
  bin: string;
  /** Captured here by this test (AVP_E2E_CAPTURE=1), not copied from elsewhere. */
  captured: boolean;
  /** The pre-tool event name and the names of its file-writing and shell tools. */
  pre: string;
  post: string;
  writeTool: string;
  shellTool: string;
  /** Events besides the tool events that must be seen. */
  lifecycle: string[];
  start(): Promise<Outcome>;
}

async function drive<S extends { requests: RecordedRequest[]; close(): Promise<void> }>(
  server: S,
  project: AgentProject,
  run: () => Promise<AgentRun>,
  turn: (r: RecordedRequest) => boolean,
  toolResults: (body: any) => number,
): Promise<Outcome> {
  try {
    const result = await run();
    const turns = server.requests.filter(turn).map((r) => ({ body: r.body, toolResults: toolResults(r.body) }));
    return { project, run: result, records: readRecords(project), turns };
  } finally {
    await server.close();
  }
}

const CASES: AgentCase[] = [
  {
    name: 'Codex CLI',
    fixtures: 'codex',
    bin: CODEX_BIN,
    captured: false,
    pre: 'PreToolUse',
    post: 'PostToolUse',
    writeTool: 'Bash',
    shellTool: 'Bash',
    lifecycle: ['SessionStart', 'UserPromptSubmit', 'Stop'],
    async start() {
      let root = '';
      const server = await startResponsesServer((req) => codexModel(root)(req));
      const project = makeCodexProject(server.url, { reason: REASON });
      root = project.root;
      return drive(
        server,
        project,
        () => runCodex(project, PROMPT, RUN_TIMEOUT_MS),
        () => true,
        codexToolResults,
      );
    },
  },
  {
    name: 'Gemini CLI',
    fixtures: 'gemini-cli',
    bin: GEMINI_BIN,
    captured: false,
    pre: 'BeforeTool',
    post: 'AfterTool',
    writeTool: 'write_file',
    shellTool: 'run_shell_command',
    lifecycle: ['SessionStart', 'BeforeAgent', 'AfterAgent', 'SessionEnd'],
    async start() {
      let root = '';
      const server = await startGeminiServer((req) => geminiModel(root)(req));
      const project = makeGeminiProject(server.url, { reason: REASON });
      root = project.root;
      return drive(server, project, () => runGemini(project, PROMPT, RUN_TIMEOUT_MS), isGeminiTurn, geminiToolResults);
    },
  },
  {
    name: 'Qwen Code',
    fixtures: 'qwen-code',
    bin: QWEN_BIN,
    captured: true,
    pre: 'PreToolUse',
    post: 'PostToolUse',
    writeTool: 'write_file',
    shellTool: 'run_shell_command',
    lifecycle: ['SessionStart', 'UserPromptSubmit', 'Stop'],
    async start() {
      let root = '';
      const server = await startOpenAIServer((req) => qwenModel(root)(req));
      const project = makeQwenProject(server.url, { reason: REASON });
      root = project.root;
      const turn = (r: RecordedRequest) => isQwenTurn(r.body);
      return drive(server, project, () => runQwen(project, PROMPT, RUN_TIMEOUT_MS), turn, chatToolResults);
    },
  },
  {
    name: 'Factory Droid CLI',
    fixtures: 'droid',
    bin: DROID_BIN,
    captured: true,
    pre: 'PreToolUse',
    post: 'PostToolUse',
    writeTool: 'Create',
    shellTool: 'Execute',
    lifecycle: ['SessionStart', 'Stop'],
    async start() {
      let root = '';
      const server = await startOpenAIServer((req) => droidModel(root)(req));
      const project = makeDroidProject(server.url, { reason: REASON });
      root = project.root;
      const turn = (r: RecordedRequest) => isDroidTurn(r.body);
      return drive(server, project, () => runDroid(project, PROMPT, RUN_TIMEOUT_MS), turn, chatToolResults);
    },
  },
];

/** An agent whose CLI is not installed here (Droid ships a binary for a few platforms only) is skipped, not failed. */
const available = CASES.filter((c) => existsSync(c.bin));
const { startAll, outcome, finished } = agentOutcomes<AgentCase, Outcome>((c) => c.name);

beforeAll(async () => {
  await startAll(available, (c) => c.start());
  if (process.env.AVP_E2E_CAPTURE === '1')
    for (const c of available) {
      const o = finished(c);
      if (c.captured && o) captureFixtures(c.fixtures, o.project, o.records);
    }
}, 240_000);

const commandOf = (input: any): string => String(input?.tool_input?.command ?? input?.tool_input?.cmd ?? '');

for (const c of CASES) {
  describe.skipIf(!existsSync(c.bin))(`the real ${c.name}, offline, with a recording hook`, () => {
    test('completes a scripted turn that writes a file and runs a shell command', () => {
      const o = outcome(c);
      expect(o.run.timedOut, said(o)).toBe(false);
      expect(o.run.code, said(o)).toBe(0);
      expect(readFileSync(join(o.project.root, WRITTEN_FILE), 'utf8')).toBe(WRITTEN_TEXT);
      expect(readFileSync(join(o.project.root, 'from-shell.txt'), 'utf8')).toBe('shell-ran');
      // The model saw every step's result and ended the turn: the last request carries all three tool results.
      expect(o.turns.map((t) => t.toolResults)).toEqual(expect.arrayContaining([0, 1, 2, 3]));
      expect(o.run.stdout).toContain(FINAL_TEXT);
    });

    test('its hooks fire, with inputs shaped like the captured fixtures', () => {
      const o = outcome(c);
      const events = o.records.map((r) => r.input.hook_event_name);
      for (const e of c.lifecycle) expect(events, `events seen: ${events.join(', ')}`).toContain(e);
      const pre = o.records.filter((r) => r.input.hook_event_name === c.pre).map((r) => r.input);
      const post = o.records.filter((r) => r.input.hook_event_name === c.post).map((r) => r.input);
      // The write and the allowed shell command, before and after (a Codex apply_patch has no PostToolUse).
      expect(pre.some((i) => i.tool_name === c.writeTool && JSON.stringify(i).includes(WRITTEN_FILE))).toBe(true);
      expect(pre.some((i) => i.tool_name === c.shellTool && commandOf(i) === SHELL_COMMAND)).toBe(true);
      expect(post.some((i) => i.tool_name === c.shellTool && commandOf(i) === SHELL_COMMAND)).toBe(true);
      for (const r of o.records) expect(r.input.cwd ?? o.project.root).toBe(o.project.root);
      const fixtures = loadFixtures(c.fixtures);
      expect(fixtures.length, `no fixtures in test/fixtures/hook/${c.fixtures}`).toBeGreaterThan(0);
      expect(unmatchedFixtures(o.records, fixtures)).toEqual([]);
    });

    test("a blocking answer stops the tool and the reason reaches the model's next request", () => {
      const o = outcome(c);
      const blockedPre = o.records.filter(
        (r) => r.input.hook_event_name === c.pre && commandOf(r.input).includes(BLOCK_MARKER),
      );
      expect(blockedPre.length).toBeGreaterThan(0);
      // The command never ran: no file, and no after-tool event for it.
      expect(existsSync(join(o.project.root, 'blocked.txt'))).toBe(false);
      const blockedPost = o.records.filter(
        (r) => r.input.hook_event_name === c.post && commandOf(r.input).includes(BLOCK_MARKER),
      );
      expect(blockedPost).toEqual([]);
      // The reason arrives with the third tool result, and not before.
      const before = o.turns.filter((t) => t.toolResults < 3);
      const after = o.turns.filter((t) => t.toolResults === 3);
      expect(after.length).toBeGreaterThan(0);
      for (const t of before) expect(JSON.stringify(t.body)).not.toContain(REASON_TOKEN);
      expect(JSON.stringify(after[0]!.body)).toContain(REASON_TOKEN);
    });
  });
}
