/**
 * The one suite every agent adapter must pass. `CASES` is typed over the adapter table (`Record<AgentName, …>`), so
 * an agent added to src/agents/index.ts does not compile until it brings its captured inputs, its expected events
 * and its own reading of a refusal — and then runs every check below:
 * - captured inputs normalize to the expected HookEvent (neutral fields, canonical tools, files);
 * - every decision × event the adapter can answer renders to what its agent reads as that decision (a refusal where
 *   the agent can refuse, never one where it cannot), with the reason where the model reads it;
 * - bad input and avp's own failure answer in the agent's fail-closed shape;
 * - the install tables only name events the agent has.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_NAMES, loadAgent } from '../../../src/agents/index.ts';
import type { AgentAdapter, Decision } from '../../../src/agents/types.ts';
import type { AgentName, FileChange, HookEvent } from '../../../src/event.ts';
import { TRIGGERS } from '../../../src/format/types.ts';
import { hookEvent } from '../../support/events.ts';

const FIXTURES = join(import.meta.dir, '../../fixtures/hook');
const ROOT = '/home/dev/project';
type Doc = Record<string, unknown>;

interface FixtureCase {
  file: string;
  expect: Partial<HookEvent>;
  /** relPath → kind of each changed file. */
  files?: Record<string, FileChange['kind']>;
}

interface AgentCases {
  folder: string;
  env: NodeJS.ProcessEnv;
  fixtures: FixtureCase[];
  /** The agent's own reading of an answer: does it refuse, and which text reaches the model as the reason. */
  refuses(doc: Doc, trigger: string): boolean;
  reason(doc: Doc, trigger: string): string | undefined;
  context(doc: Doc): string | undefined;
  /** Fields the agent rejects in an answer (strict agents). */
  forbidden?: (doc: Doc, trigger: string) => string[];
}

const hso = (doc: Doc) => (doc.hookSpecificOutput ?? {}) as Doc;
const claudeRefuses = (doc: Doc, trigger: string) =>
  trigger === 'PreToolUse'
    ? hso(doc).permissionDecision === 'deny'
    : trigger === 'PermissionRequest'
      ? (hso(doc).decision as Doc | undefined)?.behavior === 'deny'
      : doc.decision === 'block';
const claudeReason = (doc: Doc, trigger: string) =>
  trigger === 'PreToolUse'
    ? (hso(doc).permissionDecisionReason as string)
    : trigger === 'PermissionRequest'
      ? ((hso(doc).decision as Doc | undefined)?.message as string)
      : (doc.reason as string);
const claudeContext = (doc: Doc) => hso(doc).additionalContext as string | undefined;

const CASES: Record<AgentName, AgentCases> = {
  claude: {
    folder: 'claude-code',
    env: { CLAUDE_PROJECT_DIR: ROOT },
    fixtures: [
      {
        file: 'hook-input-PostToolUse-Write.json',
        expect: { event: 'PostToolUse', tool: 'Write', toolKind: 'write' },
        files: { 'src/config.ts': 'create' },
      },
      { file: 'hook-input-PostToolUse-Edit.json', expect: { event: 'PostToolUse', tool: 'Edit', toolKind: 'edit' } },
      { file: 'hook-input-Stop-active.json', expect: { event: 'Stop', stopHookActive: true } },
    ],
    refuses: claudeRefuses,
    reason: claudeReason,
    context: claudeContext,
  },
  codex: {
    folder: 'codex',
    env: {},
    fixtures: [
      {
        file: 'hook-input-PreToolUse-Bash-apply_patch.json',
        expect: {
          event: 'PreToolUse',
          tool: 'Write',
          agentTool: 'Bash',
          toolKind: 'edit',
          alsoTrigger: 'PostToolUse',
          turnId: '01a20842-d657-7790-85bf-f9712b80f84c',
        },
        files: { 'src/pay.ts': 'create' },
      },
      {
        file: 'hook-input-PreToolUse-Bash-shell.json',
        expect: { event: 'PreToolUse', tool: 'Bash', toolKind: 'shell', toolUseId: 'call_2_exec_command' },
        files: {},
      },
      { file: 'hook-input-PostToolUse-Bash-shell.json', expect: { event: 'PostToolUse', tool: 'Bash' }, files: {} },
      { file: 'hook-input-Stop.json', expect: { event: 'Stop', lastMessage: 'done', stopHookActive: false } },
      { file: 'hook-input-UserPromptSubmit.json', expect: { event: 'UserPromptSubmit', prompt: 'Do the task.' } },
      { file: 'hook-input-SessionStart.json', expect: { event: 'SessionStart', matcherValue: 'startup' } },
    ],
    refuses: (doc, trigger) => claudeRefuses(doc, trigger),
    reason: claudeReason,
    context: claudeContext,
    forbidden: (doc, trigger) => {
      // codex-rs/hooks/schema/generated/*.command.output.schema.json (additionalProperties: false).
      const common = ['continue', 'stopReason', 'suppressOutput', 'systemMessage'];
      const allowed: Record<string, string[]> = {
        PreToolUse: [...common, 'hookSpecificOutput'],
        PermissionRequest: [...common, 'hookSpecificOutput'],
        PostToolUse: [...common, 'decision', 'reason', 'hookSpecificOutput'],
        UserPromptSubmit: [...common, 'decision', 'reason', 'hookSpecificOutput'],
        Stop: [...common, 'decision', 'reason'],
        SessionStart: [...common, 'hookSpecificOutput'],
      };
      const bad = Object.keys(doc).filter((k) => !(allowed[trigger] ?? common).includes(k));
      if (doc.decision === 'block' && !String(doc.reason ?? '').trim()) bad.push('decision without reason');
      return bad;
    },
  },
  gemini: {
    folder: 'gemini-cli',
    env: { GEMINI_PROJECT_DIR: ROOT, GEMINI_SESSION_ID: 'env-session' },
    fixtures: [
      {
        file: 'hook-input-BeforeTool-write_file.json',
        expect: { event: 'PreToolUse', agentEvent: 'BeforeTool', tool: 'Write', agentTool: 'write_file' },
        files: { 'src/config.ts': 'update' },
      },
      {
        file: 'hook-input-AfterTool-write_file.json',
        expect: { event: 'PostToolUse', agentEvent: 'AfterTool', tool: 'Write', toolKind: 'write' },
        files: { 'src/config.ts': 'create' },
      },
      {
        file: 'hook-input-BeforeTool-run_shell_command.json',
        expect: { event: 'PreToolUse', tool: 'Bash', agentTool: 'run_shell_command', toolKind: 'shell' },
        files: {},
      },
      { file: 'hook-input-AfterTool-run_shell_command.json', expect: { event: 'PostToolUse', tool: 'Bash' } },
      { file: 'hook-input-BeforeAgent.json', expect: { event: 'UserPromptSubmit', prompt: 'Do the task.' } },
      {
        file: 'hook-input-AfterAgent.json',
        expect: { event: 'Stop', agentEvent: 'AfterAgent', lastMessage: 'done', stopHookActive: false },
      },
      { file: 'hook-input-SessionStart.json', expect: { event: 'SessionStart', matcherValue: 'startup' } },
      { file: 'hook-input-SessionEnd.json', expect: { event: 'SessionEnd', matcherValue: 'exit' } },
    ],
    // Gemini CLI: `decision: "deny"` (alias "block") refuses on every event that can refuse; `reason` is the text.
    refuses: (doc) => doc.decision === 'deny' || doc.decision === 'block',
    reason: (doc) => doc.reason as string | undefined,
    context: claudeContext,
  },
  qwen: {
    folder: 'qwen-code',
    env: { QWEN_PROJECT_DIR: ROOT },
    fixtures: [
      {
        file: 'hook-input-PreToolUse-write_file.json',
        expect: { event: 'PreToolUse', tool: 'Write', agentTool: 'write_file', toolKind: 'write' },
        files: { 'notes.txt': 'update' },
      },
      {
        file: 'hook-input-PostToolUse-write_file.json',
        expect: { event: 'PostToolUse', tool: 'Write' },
        files: { 'notes.txt': 'update' },
      },
      { file: 'hook-input-PreToolUse-run_shell_command.json', expect: { event: 'PreToolUse', tool: 'Bash' } },
      { file: 'hook-input-PostToolUse-run_shell_command.json', expect: { event: 'PostToolUse', tool: 'Bash' } },
      {
        file: 'hook-input-UserPromptSubmit.json',
        expect: { event: 'UserPromptSubmit', turnId: 'a78fbe67-6411-45e1-8d19-da6741b9d327########0' },
      },
      // Qwen's Stop loop signal is not trusted: every Stop counts as part of the series (see the adapter).
      { file: 'hook-input-Stop.json', expect: { event: 'Stop', lastMessage: 'All done.', stopHookActive: true } },
    ],
    refuses: (doc, trigger) =>
      // Qwen ignores `decision` on PostToolUse: what reaches the model there is the additional context.
      trigger === 'PostToolUse' ? doc.decision === 'block' && !!claudeContext(doc) : claudeRefuses(doc, trigger),
    reason: (doc, trigger) => (trigger === 'PostToolUse' ? claudeContext(doc) : claudeReason(doc, trigger)),
    context: claudeContext,
  },
  droid: {
    folder: 'droid',
    env: { FACTORY_PROJECT_DIR: ROOT },
    fixtures: [
      {
        file: 'hook-input-PreToolUse-Create.json',
        expect: { event: 'PreToolUse', tool: 'Write', agentTool: 'Create', toolKind: 'write' },
        files: { 'notes.txt': 'update' },
      },
      { file: 'hook-input-PostToolUse-Create.json', expect: { event: 'PostToolUse', tool: 'Write' } },
      {
        file: 'hook-input-PreToolUse-Execute.json',
        expect: { event: 'PreToolUse', tool: 'Bash', agentTool: 'Execute', toolKind: 'shell' },
      },
      { file: 'hook-input-Stop.json', expect: { event: 'Stop', stopHookActive: false } },
      { file: 'hook-input-SessionEnd.json', expect: { event: 'SessionEnd', matcherValue: 'other' } },
    ],
    refuses: claudeRefuses,
    reason: claudeReason,
    context: claudeContext,
    forbidden: (doc) => ['passed', 'violations', 'summary', 'errors'].filter((k) => k in doc),
  },
};

const fixture = (folder: string, file: string) => JSON.parse(readFileSync(join(FIXTURES, folder, file), 'utf8'));

const decision = (kind: Decision['kind'], context = false): Decision => ({
  kind,
  reason: 'R: src/pay.ts line 1 holds a live key',
  userMessage: 'U: avp blocked it',
  ...(context ? { context: 'C: a note for the model' } : {}),
  avp: { passed: kind === 'pass', violations: [], summary: 's' },
});

/** The agent's event name for a trigger (the first in its table). */
const agentEventOf = (a: AgentAdapter, trigger: string) =>
  Object.entries(a.events).find(([, t]) => t === trigger)?.[0] ?? trigger;

const event = (a: AgentAdapter, trigger: string): HookEvent => {
  const agentEvent = agentEventOf(a, trigger);
  return hookEvent(ROOT, trigger, { agent: a.name, ...(agentEvent !== trigger ? { agentEvent } : {}) });
};

const parse = (stdout: string): Doc => JSON.parse(stdout) as Doc;

test('the suite covers every agent of the adapter table', () => {
  expect(Object.keys(CASES).sort()).toEqual([...AGENT_NAMES].sort());
});

for (const name of AGENT_NAMES) {
  const cases = CASES[name];
  describe(`adapter ${name}`, () => {
    test('captured inputs normalize to the expected HookEvent', async () => {
      const a = await loadAgent(name);
      for (const c of cases.fixtures) {
        const e = a.normalize(fixture(cases.folder, c.file), cases.env);
        expect({ file: c.file, ...e }).toMatchObject({ file: c.file, agent: name, ...c.expect });
        if (c.files) expect(Object.fromEntries(e.files.map((f) => [f.relPath, f.kind]))).toEqual(c.files);
        expect(e.raw).toBeDefined();
      }
    });

    test('every decision × event renders to what the agent reads as that decision', async () => {
      const a = await loadAgent(name);
      const triggers = new Set([...Object.values(a.events), ...TRIGGERS]);
      for (const trigger of triggers) {
        const ability = a.abilities[trigger];
        const kinds: Decision['kind'][] = ['warn', 'pass'];
        if (ability?.stop) kinds.push(ability.stop);
        for (const kind of kinds) {
          for (const context of [false, true]) {
            if (context && !ability?.context) continue;
            const d = decision(kind, context);
            // The engine's rule (decision.ts): where a refusal alone does not reach the model, the context carries it.
            if ((kind === 'deny' || kind === 'block') && ability?.contextOnBlock) d.context = d.reason;
            const out = a.render(event(a, trigger), d);
            const label = `${name} ${trigger} ${kind}${context ? ' +context' : ''}`;
            expect({ label, code: out.exitCode }).toEqual({ label, code: 0 });
            const doc = parse(out.stdout);
            const refuses = cases.refuses(doc, trigger);
            expect({ label, refuses }).toEqual({ label, refuses: kind === 'deny' || kind === 'block' });
            if (refuses) expect({ label, reason: cases.reason(doc, trigger) }).toEqual({ label, reason: d.reason });
            if (d.context) expect({ label, ctx: cases.context(doc) }).toEqual({ label, ctx: d.context });
            if (cases.forbidden)
              expect({ label, forbidden: cases.forbidden(doc, trigger) }).toEqual({ label, forbidden: [] });
          }
        }
      }
    });

    test('bad input: exit 2 with the reason on stderr (a refusal on every agent here)', async () => {
      const a = await loadAgent(name);
      const out = a.failClosed('not an object', { kind: 'bad-input', message: 'the hook input is not JSON' });
      expect(out.exitCode).toBe(2);
      expect(out.stderr).toContain('the hook input is not JSON');
      expect(() => a.normalize([1, 2], cases.env)).toThrow(/not a JSON object/);
      expect(() => a.normalize({ cwd: ROOT }, cases.env)).toThrow(/hook_event_name/);
    });

    test("avp's own failure refuses wherever the agent can refuse, and names the kill switch", async () => {
      const a = await loadAgent(name);
      for (const [agentEvent, trigger] of Object.entries(a.events)) {
        const out = a.failClosed({ hook_event_name: agentEvent }, { kind: 'internal', message: 'boom' });
        const doc = parse(out.stdout);
        const label = `${name} ${agentEvent}`;
        expect({ label, code: out.exitCode }).toEqual({ label, code: 0 });
        if (a.abilities[trigger]?.stop) {
          expect({ label, refuses: cases.refuses(doc, trigger) }).toEqual({ label, refuses: true });
          expect(cases.reason(doc, trigger)).toContain('AVP_DISABLE=1');
        }
        if (cases.forbidden)
          expect({ label, forbidden: cases.forbidden(doc, trigger) }).toEqual({ label, forbidden: [] });
      }
    });

    test('install tables: only events the agent has, a file per scope, a timeout unit', async () => {
      const a = await loadAgent(name);
      for (const e of a.install.events) expect(Object.keys(a.events)).toContain(e);
      expect(a.install.scopes).toContain('project');
      expect(a.install.scopes).toContain('user');
      const env = { HOME: '/home/u' };
      expect(a.install.path('project', ROOT, env).startsWith(`${ROOT}/.`)).toBe(true);
      expect(a.install.path('user', ROOT, env).startsWith('/home/u/.')).toBe(true);
    });
  });
}
