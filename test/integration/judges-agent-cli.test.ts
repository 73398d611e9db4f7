/**
 * The agent-CLI judges with the real CLIs — `codex exec`, `gemini -p`, `qwen`, `droid exec` — each configured (as its
 * user would have it) against a loopback model server. For each: the scripted model first tries to write a file
 * with the agent's own write tool, then answers a failing verdict; avp reads the verdict. The judge's session cannot
 * write (the file never appears, the model reads a refusal), fires none of the project's hooks (a recording hook on
 * every event stays silent), and runs with the recursion guard `AVP_SUBAGENT=1` (a wrapper in front of the CLI
 * records its environment). `avp doctor` probes the same judge through the binary. All four run at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCliBackend } from '../../src/judges/agent-cli-specs.ts';
import { detectBackend } from '../../src/judges/detect.ts';
import { judgeFor } from '../../src/judges/select.ts';
import type { JudgeResult } from '../../src/judges/types.ts';
import { codexToolResults, CODEX_BIN, makeCodexProject } from '../e2e/agents/codex-support.ts';
import { DROID_BIN, DROID_MODEL, makeDroidProject } from '../e2e/agents/droid-support.ts';
import { GEMINI_BIN, geminiToolResults, isGeminiTurn, makeGeminiProject } from '../e2e/agents/gemini-support.ts';
import { makeQwenProject, QWEN_BIN } from '../e2e/agents/qwen-support.ts';
import { type AgentProject, secureTempParent } from '../e2e/agents/agent-support.ts';
import { chatToolResults } from '../e2e/agents/turn-support.ts';
import { startGeminiServer } from '../support/gemini-server.ts';
import { startOpenAIServer } from '../support/openai-server.ts';
import { startResponsesServer } from '../support/responses-server.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';
import type { RecordedRequest } from '../support/scripted-server.ts';
import { makeValidator } from '../unit/judges/helpers.ts';
import { config, evaluate } from './judges-support.ts';

const VERDICT = {
  passed: false,
  violations: [
    { rule: 'no-secrets', file: 'src/config.ts', line: 1, snippet: 'sk-live', suggestion: 'read it from the env' },
  ],
  summary: 'a hardcoded key (judge-7c1e)',
};
/** In the validator's prompt: found in the model's request, it proves avp's prompt reached the agent's model. */
const PROMPT_TOKEN = 'prompt-token-5d2b';
const PWNED = 'judge-wrote-this.txt';

interface Case {
  backend: AgentCliBackend;
  bin: string;
  /** `judge.model` where the CLI's own default needs a login the test has not (Droid's default is Factory's). */
  model?: string;
  setup(): Promise<{ project: AgentProject; requests: () => RecordedRequest[]; close(): Promise<void> }>;
}

interface Outcome {
  project: AgentProject;
  requests: RecordedRequest[];
  result: JudgeResult;
  wrapperLog: string;
  doctor: any;
}

const writeTry = (root: string) => ({ path: join(root, PWNED), content: 'the judge must not write\n' });
const answer = `Reviewed the change.\n${JSON.stringify(VERDICT)}`;

const CASES: Case[] = [
  {
    backend: 'codex',
    bin: CODEX_BIN,
    async setup() {
      let root = '';
      const server = await startResponsesServer(({ body }) =>
        codexToolResults(body) === 0
          ? { calls: [{ name: 'exec_command', arguments: { cmd: `printf x > ${PWNED}`, workdir: root } }] }
          : { text: answer },
      );
      const project = makeCodexProject(server.url, { reason: 'hooks must not run in a judge' });
      root = project.root;
      return { project, requests: () => server.requests, close: () => server.close() };
    },
  },
  {
    backend: 'gemini',
    bin: GEMINI_BIN,
    async setup() {
      let root = '';
      const server = await startGeminiServer((req) => {
        if (!isGeminiTurn(req)) return { text: '{"reasoning":"judge","model_choice":"flash","next_speaker":"user"}' };
        const w = writeTry(root);
        return geminiToolResults(req.body) === 0
          ? { calls: [{ name: 'write_file', args: { file_path: w.path, content: w.content } }] }
          : { text: answer };
      });
      // Gemini CLI reads a settings file only when no folder above it is writable by others (so not under /tmp).
      const project = makeGeminiProject(server.url, { reason: 'hooks must not run in a judge' }, secureTempParent());
      root = project.root;
      return { project, requests: () => server.requests.filter(isGeminiTurn), close: () => server.close() };
    },
  },
  {
    backend: 'qwen',
    bin: QWEN_BIN,
    async setup() {
      let root = '';
      const server = await startOpenAIServer(({ body }) => {
        if (!body?.tools?.length) return { text: 'ok' };
        const w = writeTry(root);
        return chatToolResults(body) === 0
          ? { toolCalls: [{ name: 'write_file', arguments: { file_path: w.path, content: w.content } }] }
          : { text: answer };
      });
      const project = makeQwenProject(server.url, { reason: 'hooks must not run in a judge' });
      root = project.root;
      return {
        project,
        requests: () => server.requests.filter((r) => r.body?.tools?.length),
        close: () => server.close(),
      };
    },
  },
  {
    backend: 'droid',
    bin: DROID_BIN,
    model: `custom:${DROID_MODEL}`,
    async setup() {
      let root = '';
      const server = await startOpenAIServer(({ body }) => {
        if (!body?.tools?.length) return { text: 'ok' };
        const w = writeTry(root);
        return chatToolResults(body) === 0
          ? { toolCalls: [{ name: 'Create', arguments: { file_path: w.path, content: w.content } }] }
          : { text: answer };
      });
      const project = makeDroidProject(server.url, { reason: 'hooks must not run in a judge' });
      root = project.root;
      return {
        project,
        requests: () => server.requests.filter((r) => r.body?.tools?.length),
        close: () => server.close(),
      };
    },
  },
];

/** A script in front of the real CLI that records the judge's argv and recursion guard, then runs the CLI. */
function wrapper(project: AgentProject, realBin: string): { path: string; log: string } {
  const dir = join(project.home, 'wrapper');
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'calls.log');
  const path = join(dir, 'agent-cli');
  writeFileSync(
    path,
    `#!/bin/sh\n{ echo "AVP_SUBAGENT=$AVP_SUBAGENT"; echo "argv: $*"; } >> '${log}'\nexec '${realBin}' "$@"\n`,
  );
  chmodSync(path, 0o755);
  return { path, log };
}

async function run(c: Case): Promise<Outcome> {
  const { project, requests, close } = await c.setup();
  try {
    const w = wrapper(project, c.bin);
    const env: Record<string, string> = {
      ...project.env,
      AVP_HOME: join(project.home, '.avp'),
      [`AVP_${c.backend.toUpperCase()}_BIN`]: w.path,
    };
    const validator = makeValidator({ body: `Fail when the change adds a hardcoded API key. ${PROMPT_TOKEN}` });
    const cfg = config({ backend: c.backend, ...(c.model ? { model: c.model } : {}) });
    const event = {
      agent: 'claude' as const,
      event: 'PostToolUse' as const,
      tool: 'Write',
      toolInput: { file_path: join(project.root, 'src/config.ts') },
      cwd: project.root,
      projectRoot: project.root,
      files: [
        {
          path: join(project.root, 'src/config.ts'),
          relPath: 'src/config.ts',
          inProject: true,
          kind: 'create' as const,
          before: null,
          after: 'export const KEY = "sk-live-1234567890abcdef";\n',
        },
      ],
      raw: { hook_event_name: 'PostToolUse' },
    };
    const result = await evaluate(await judgeFor(validator, cfg, env), validator, event, 120_000);
    const doctorEnv = { ...env, AVP_JUDGE: c.backend, ...(c.model ? { AVP_MODEL: c.model } : {}) };
    const doctor = await runAvp(['doctor', '--json'], { cwd: project.root, env: doctorEnv, timeoutMs: 120_000 });
    return {
      project,
      requests: [...requests()],
      result,
      wrapperLog: readFileSync(w.log, 'utf8'),
      doctor: JSON.parse(doctor.stdout),
    };
  } finally {
    await close();
  }
}

const available = CASES.filter((c) => existsSync(c.bin));
const outcomes = new Map<AgentCliBackend, Outcome | Error>();

beforeAll(async () => {
  await Promise.all(available.map(async (c) => outcomes.set(c.backend, await run(c).catch((e: Error) => e))));
}, 240_000);

afterAll(() => {
  for (const o of outcomes.values()) if (!(o instanceof Error)) o.project.cleanup();
});

function outcome(c: Case): Outcome {
  const o = outcomes.get(c.backend);
  if (!o) throw new Error(`${c.backend} did not run`);
  if (o instanceof Error) throw o;
  return o;
}

for (const c of CASES) {
  describe.skipIf(!existsSync(c.bin))(`the ${c.backend} CLI as a judge`, () => {
    test("answers a verdict avp reads, from avp's prompt", () => {
      const o = outcome(c);
      expect(o.result.verdict.passed).toBe(false);
      expect(o.result.verdict.summary).toContain('judge-7c1e');
      expect(o.result.verdict.violations[0]).toMatchObject({ rule: 'no-secrets', file: 'src/config.ts', line: 1 });
      expect(o.result.judge).toBe(c.backend);
      expect(JSON.stringify(o.requests[0]?.body)).toContain(PROMPT_TOKEN);
      expect(JSON.stringify(o.requests[0]?.body)).toContain('sk-live-1234567890abcdef');
    });

    test('cannot write files: the write it tried never happened', () => {
      const o = outcome(c);
      // The model's second request carries the refused write's result: the judge did try.
      expect(o.requests.length).toBeGreaterThanOrEqual(2);
      expect(existsSync(join(o.project.root, PWNED))).toBe(false);
    });

    test("runs none of the project's hooks, with the recursion guard AVP_SUBAGENT=1", () => {
      const o = outcome(c);
      // The project's hook config runs a recording hook on every event: nothing was recorded.
      expect(readdirSync(o.project.records)).toEqual([]);
      const lines = o.wrapperLog.trim().split('\n');
      expect(lines.filter((l) => l.startsWith('AVP_SUBAGENT=')).every((l) => l === 'AVP_SUBAGENT=1')).toBe(true);
      expect(lines.some((l) => l === 'AVP_SUBAGENT=1')).toBe(true);
    });

    test('avp doctor probes it through the binary', () => {
      const o = outcome(c);
      expect(o.doctor.judge.backend).toBe(c.backend);
      expect(o.doctor.judge.probe?.ok, JSON.stringify(o.doctor.judge)).toBe(true);
    });
  });
}

describe('choosing an agent CLI as the judge', () => {
  /** A PATH holding only executables with these names (and what sh needs). */
  function pathWith(names: string[]): string {
    const dir = tempDir('avp-judge-path-');
    for (const n of names) {
      writeFileSync(join(dir, n), '#!/bin/sh\nexit 0\n');
      chmodSync(join(dir, n), 0o755);
    }
    return dir;
  }

  test('auto-detection: claude first, then codex, gemini, qwen, droid, then the API keys', () => {
    const env = (names: string[], extra: Record<string, string> = {}) => ({ PATH: pathWith(names), ...extra });
    const key = { ANTHROPIC_API_KEY: 'sk-ant-x' };
    expect(detectBackend(config(), env(['claude', 'codex'])).backend).toBe('claude');
    expect(detectBackend(config(), env(['droid', 'gemini', 'codex'], key)).backend).toBe('codex');
    expect(detectBackend(config(), env(['droid', 'gemini'], key)).backend).toBe('gemini');
    expect(detectBackend(config(), env(['droid', 'qwen'])).backend).toBe('qwen');
    const droid = detectBackend(config(), env(['droid']));
    expect(droid).toMatchObject({
      backend: 'droid',
      reason: expect.stringContaining('auto: the droid CLI is on PATH'),
    });
    expect(detectBackend(config(), env([], key)).backend).toBe('anthropic');
  });

  test('judge.backend names one; missing, it fails closed with the fix', () => {
    const e = rejectionSync(() => detectBackend(config({ backend: 'qwen' }), { PATH: pathWith(['codex']) }));
    expect(e.code).toBe('judge-unconfigured');
    expect(e.message).toContain('judge backend "qwen" is selected');
    expect(e.fix).toContain('AVP_QWEN_BIN');
    const bin = join(pathWith(['my-gemini']), 'my-gemini');
    const found = detectBackend(config({ backend: 'gemini' }), { PATH: '/nowhere', AVP_GEMINI_BIN: bin });
    expect(found).toMatchObject({ backend: 'gemini', bin });
  });

  test('"judge": {"backend": "droid"} in avp.config.json is read by the binary (doctor shows it)', async () => {
    const root = tempDir('avp-judge-config-');
    writeFileSync(join(root, 'avp.config.json'), JSON.stringify({ judge: { backend: 'droid' } }));
    mkdirSync(join(root, '.avp'));
    const r = await runAvp(['doctor', '--json', '--no-probe'], {
      cwd: root,
      env: { PATH: `${pathWith(['droid', 'claude'])}:/usr/bin:/bin` },
    });
    const j = JSON.parse(r.stdout);
    expect(j.judge).toMatchObject({ backend: 'droid', reason: expect.stringContaining('judge.backend = "droid"') });
    const bad = await runAvp(['doctor', '--json', '--no-probe'], {
      cwd: root,
      env: { PATH: '/usr/bin:/bin', AVP_JUDGE: 'codexx' },
    });
    expect(JSON.parse(bad.stdout).config.error).toContain('use one of auto, claude, codex, gemini, qwen, droid');
  });
});

function rejectionSync(fn: () => unknown): any {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}
