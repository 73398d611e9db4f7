/**
 * A sub-agent in the real OpenCode, offline, with avp's plugin (`avp init --agent opencode`): the scripted main agent
 * calls the `task` tool; OpenCode runs the sub-agent in a child session (`parentID`), where the model writes
 * `notes.txt` and finishes; the main agent then ends its turn. Installed: the never-passing Stop validator and the same
 * script as a SubagentStop validator. Without avp's sub-agent mapping the child's `session.idle` was judged as a Stop
 * and blocked, and the plugin prompted the child session again (as the primary agent), three times.
 *
 * What must hold: the Stop validator judges the main session's end only (the child is never prompted by avp); the
 * SubagentStop validator judges the sub-agent's end, with the sub-agent's file, and its reason joins the `task`
 * result the main agent reads; the sub-agent's tool calls reach avp as the main session's (one session in avp's state,
 * whose Stop sees the sub-agent's file too). `opencode run` leaves at the main session's first idle (avp-part2's known
 * bug), which is enough here: the main session's Stop is judged there.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type OpenAIReply, startOpenAIServer } from '../../support/openai-server.ts';
import { projectSessions } from '../../support/session-state.ts';
import type { AgentProject, AgentRun } from './agent-support.ts';
import { DONE_TEXT, installAvp, runLog, sessionRecords } from './avp-support.ts';
import { makeOpenCodeProject, OPENCODE_BIN, runOpenCode } from './opencode-support.ts';
import { chatToolResults } from './turn-support.ts';

const MARK = 'SUBAGENT-7c41';
const NOTES = 'notes.txt';
const PROMPT = 'Have a sub-agent write the notes, then stop.';
const SUBAGENT_DONE = 'Sub-agent: notes written.';
const RUN_TIMEOUT_MS = 110_000;

interface Outcome {
  project: AgentProject;
  run: AgentRun;
  /** Conversation requests (with tools), each marked as the sub-agent's or the main agent's. */
  turns: Array<{ body: any; child: boolean; toolResults: number }>;
}

const isChild = (body: any) =>
  (body?.messages ?? []).some((m: any) => m.role === 'user' && JSON.stringify(m.content).includes(MARK));

/** Main agent: `task` first, then the end of its turn. Sub-agent: `write notes.txt`, then its final text. */
function model(root: string) {
  return ({ body }: { body: any }): OpenAIReply => {
    if (!((body?.tools?.length ?? 0) > 0)) return { text: 'e2e title' };
    const done = chatToolResults(body) > 0;
    if (isChild(body))
      return done
        ? { text: SUBAGENT_DONE }
        : { toolCalls: [{ name: 'write', arguments: { filePath: join(root, NOTES), content: 'notes\n' } }] };
    if (done) return { text: DONE_TEXT };
    const task = { description: 'write notes', prompt: `${MARK}: write the notes`, subagent_type: 'general' };
    return { toolCalls: [{ name: 'task', arguments: task }] };
  };
}

/** The never-passing Stop script, as a SubagentStop validator of its own name. */
function addSubagentValidator(project: AgentProject): void {
  const dir = join(project.root, '.avp', 'validators', 'always-fail-subagent');
  cpSync(join(project.root, '.avp', 'validators', 'always-fail-stop'), dir, { recursive: true });
  const file = join(dir, 'VALIDATOR.md');
  const text = readFileSync(file, 'utf8')
    .replace('name: always-fail-stop', 'name: always-fail-subagent')
    .replace('trigger: Stop', 'trigger: SubagentStop');
  writeFileSync(file, text);
  const r = Bun.spawnSync(['avp', 'accept'], { cwd: project.root, env: project.env, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`avp accept failed: ${r.stderr}`);
}

let outcome: Outcome | Error | undefined;
const ONLY = process.env.AVP_E2E_AGENTS?.split(',').filter(Boolean);
const wanted = existsSync(OPENCODE_BIN) && (!ONLY || ONLY.includes('opencode'));

beforeAll(async () => {
  if (!wanted) return;
  let root = '';
  const server = await startOpenAIServer((req) => model(root)(req));
  try {
    const project = makeOpenCodeProject(server.url);
    root = project.root;
    installAvp(project, 'opencode');
    addSubagentValidator(project);
    const run = await runOpenCode(project, PROMPT, RUN_TIMEOUT_MS);
    const turns = server.requests
      .filter((r) => (r.body?.tools?.length ?? 0) > 0)
      .map((r) => ({ body: r.body, child: isChild(r.body), toolResults: chatToolResults(r.body) }));
    outcome = { project, run, turns };
  } catch (e) {
    outcome = e as Error;
  } finally {
    await server.close();
  }
}, 150_000);

afterAll(() => {
  if (process.env.AVP_E2E_KEEP !== '1' && outcome && !(outcome instanceof Error)) outcome.project.cleanup();
});

function done(): Outcome {
  if (!outcome) throw new Error('opencode did not run');
  if (outcome instanceof Error) throw outcome;
  return outcome;
}

const said = (o: Outcome) =>
  `exit ${o.run.code}\nstdout: ${o.run.stdout.slice(-1500)}\nstderr: ${o.run.stderr.slice(-3000)}`;
const runsOf = (o: Outcome, name: string) => runLog(o.project).filter((r) => (r.validator ?? r.name) === name);
const text = (body: any) => JSON.stringify(body);

describe.skipIf(!wanted)("a sub-agent (the task tool) in the real OpenCode, with avp's plugin", () => {
  test('the sub-agent ran in a child session and wrote its file; the main agent ended its turn', () => {
    const o = done();
    expect(o.run.code, said(o)).toBe(0);
    expect(o.run.stdout).toContain(DONE_TEXT);
    expect(existsSync(join(o.project.root, NOTES)), said(o)).toBe(true);
    expect(o.turns.filter((t) => t.child).length, said(o)).toBeGreaterThan(0);
  });

  test("the Stop validator judges the main session's end only: avp never prompts the sub-agent's session", () => {
    const o = done();
    const stops = runsOf(o, 'always-fail-stop');
    expect(stops.length, said(o)).toBe(1);
    // The child was asked twice (its write, its final text) and never again with avp's Stop reason.
    const child = o.turns.filter((t) => t.child);
    expect(child.map((t) => t.toolResults)).toEqual([0, 1]);
    for (const t of child) expect(text(t.body)).not.toContain('always-fail-stop');
  });

  test("the SubagentStop validator judges the sub-agent's end, and its reason joins the task's result", () => {
    const o = done();
    expect(runsOf(o, 'always-fail-subagent').length, said(o)).toBe(1);
    const after = o.turns.filter((t) => !t.child && t.toolResults === 1);
    expect(after.length, said(o)).toBeGreaterThan(0);
    const result = text(after[0]!.body);
    expect(result).toContain('always-fail-subagent');
    expect(result).toContain(`turn files: ${NOTES}`);
    expect(result).toContain(SUBAGENT_DONE);
  });

  test("the sub-agent's calls are the main session's: one session in avp's state, whose Stop saw the sub-agent's file", () => {
    const o = done();
    const state = projectSessions(o.project.env.AVP_HOME!, o.project.root);
    const sessions = readdirSync(state).filter((d) => existsSync(join(state, d, 'events.jsonl')));
    expect(sessions, said(o)).toHaveLength(1);
    const records = sessionRecords(o.project) as any[];
    expect(records.some((r) => r.t === 'change' && r.rel === NOTES && r.agent)).toBe(true);
    // The main Stop's reason (the Stop validator prints the turn's files) names the sub-agent's file.
    const stop = runsOf(o, 'always-fail-stop')[0];
    expect(JSON.stringify(stop)).toContain(NOTES);
  });
});
