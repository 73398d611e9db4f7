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
import type { AgentAdapter, AgentAnswer, Decision } from '../../../src/agents/types.ts';
import type { AgentName, FileChange, HookEvent } from '../../../src/protocol/event.ts';
import { TRIGGERS } from '../../../src/validator/types.ts';
import { hookEvent } from '../../support/events.ts';

const FIXTURES = join(import.meta.dir, '../../fixtures/hook');
const ROOT = '/home/dev/project';
type Doc = Record<string, unknown>;

interface FixtureCase {
  file: string;
  /** The event name avp's hook entry passes (`--event`) for agents whose input carries none. */
  event?: string;
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
  /** Agents that read exit codes (Windsurf, Kiro): the answer as a document to read; default: exit 0 + its JSON. */
  decode?: (out: AgentAnswer) => Doc;
  /** How the agent reads avp's answer to input that is not an event; default: exit 2 with the reason on stderr. */
  badInputRefused?: (out: AgentAnswer) => boolean;
}

/** An agent that refuses by exit code: exit 2 refuses with stderr as the reason; stdout is what it adds to context. */
const exitCodeAnswer = (out: AgentAnswer): Doc => ({
  exit: out.exitCode,
  reason: out.exitCode === 2 ? (out.stderr ?? '').trim() : undefined,
  stdout: out.stdout.trim() || undefined,
});
/** How Windsurf and Kiro read avp's answer: by its exit code. */
const exitCodeReading: Pick<AgentCases, 'decode' | 'refuses' | 'reason' | 'context'> = {
  decode: exitCodeAnswer,
  refuses: (doc) => doc.exit === 2,
  reason: (doc) => doc.reason as string | undefined,
  context: (doc) => doc.stdout as string | undefined,
};
/** How avp's own plugin (OpenCode, Amp) reads avp's answer: its `decision`, `reason` and `context`. */
const pluginReading: Pick<AgentCases, 'refuses' | 'reason' | 'context'> = {
  refuses: (doc) => doc.decision === 'deny' || doc.decision === 'block',
  reason: (doc) => doc.reason as string | undefined,
  context: (doc) => doc.context as string | undefined,
};

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
    refuses: claudeRefuses,
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
    refuses: (doc, trigger) =>
      // Droid ignores `decision` on PostToolUse (as Qwen): what reaches the model there is the additional context;
      // at a prompt it refuses only on `continue: false` (its bundled code).
      trigger === 'PostToolUse'
        ? doc.decision === 'block' && !!claudeContext(doc)
        : trigger === 'UserPromptSubmit'
          ? doc.continue === false && claudeRefuses(doc, trigger)
          : claudeRefuses(doc, trigger),
    reason: (doc, trigger) =>
      trigger === 'PostToolUse'
        ? claudeContext(doc)
        : trigger === 'UserPromptSubmit'
          ? (doc.stopReason as string | undefined)
          : claudeReason(doc, trigger),
    context: claudeContext,
    forbidden: (doc) => ['passed', 'violations', 'summary', 'errors'].filter((k) => k in doc),
  },
  copilot: {
    folder: 'copilot',
    env: { COPILOT_PROJECT_DIR: ROOT },
    fixtures: [
      {
        file: 'hook-input-preToolUse-create.json',
        event: 'preToolUse',
        expect: {
          event: 'PreToolUse',
          agentEvent: 'preToolUse',
          tool: 'Write',
          agentTool: 'create',
          toolKind: 'write',
          alsoTrigger: 'PostToolUse',
          sessionId: 'c0p1l07-5e55',
        },
        files: { 'src/pay.ts': 'update' },
      },
      {
        file: 'hook-input-preToolUse-edit.json',
        event: 'preToolUse',
        expect: {
          event: 'PreToolUse',
          tool: 'Edit',
          agentTool: 'edit',
          toolInput: expect.objectContaining({ old_string: '42' }),
        },
        files: { 'src/pay.ts': 'update' },
      },
      {
        file: 'hook-input-preToolUse-bash.json',
        event: 'preToolUse',
        expect: {
          event: 'PreToolUse',
          tool: 'Bash',
          toolKind: 'shell',
          toolInput: expect.objectContaining({ command: 'ls src' }),
        },
        files: {},
      },
      {
        file: 'hook-input-postToolUse-bash.json',
        event: 'postToolUse',
        expect: { event: 'PostToolUse', tool: 'Bash' },
      },
      {
        file: 'hook-input-userPromptSubmitted.json',
        event: 'userPromptSubmitted',
        expect: { event: 'UserPromptSubmit', prompt: 'Add a payment module.' },
      },
      { file: 'hook-input-agentStop.json', event: 'agentStop', expect: { event: 'Stop', stopHookActive: false } },
      {
        file: 'hook-input-sessionStart.json',
        event: 'sessionStart',
        expect: { event: 'SessionStart', matcherValue: 'new' },
      },
    ],
    refuses: (doc, trigger) =>
      trigger === 'PreToolUse' ? doc.permissionDecision === 'deny' : doc.decision === 'block',
    reason: (doc, trigger) =>
      (trigger === 'PreToolUse' ? doc.permissionDecisionReason : doc.reason) as string | undefined,
    context: (doc) => doc.additionalContext as string | undefined,
    forbidden: (doc) =>
      Object.keys(doc).filter(
        (k) =>
          !['permissionDecision', 'permissionDecisionReason', 'decision', 'reason', 'additionalContext'].includes(k),
      ),
    // Copilot skips a hook that exits non-zero: the refusal must be an answer on exit 0.
    badInputRefused: (out) => {
      const doc = JSON.parse(out.stdout) as Doc;
      return out.exitCode === 0 && doc.permissionDecision === 'deny' && doc.decision === 'block';
    },
  },
  cursor: {
    folder: 'cursor',
    env: { CURSOR_PROJECT_DIR: ROOT },
    fixtures: [
      {
        file: 'hook-input-preToolUse-Write.json',
        expect: {
          event: 'PreToolUse',
          agentEvent: 'preToolUse',
          tool: 'Write',
          toolKind: 'write',
          alsoTrigger: 'PostToolUse',
        },
        files: { 'src/pay.ts': 'update' },
      },
      {
        file: 'hook-input-beforeShellExecution.json',
        expect: { event: 'PreToolUse', agentEvent: 'beforeShellExecution', tool: 'Bash', agentTool: 'Shell' },
        files: {},
      },
      { file: 'hook-input-beforeReadFile.json', expect: { event: 'PreToolUse', tool: 'Read', toolKind: 'read' } },
      {
        file: 'hook-input-afterFileEdit.json',
        expect: { event: 'PostToolUse', agentEvent: 'afterFileEdit', tool: 'MultiEdit', toolKind: 'edit' },
        files: { 'src/pay.ts': 'update' },
      },
      { file: 'hook-input-afterShellExecution.json', expect: { event: 'PostToolUse', tool: 'Bash' } },
      {
        file: 'hook-input-beforeSubmitPrompt.json',
        expect: { event: 'UserPromptSubmit', prompt: 'Add a payment module.' },
      },
      { file: 'hook-input-stop.json', expect: { event: 'Stop', stopHookActive: false, sessionId: 'c9a1b2c3-conv' } },
    ],
    refuses: (doc, trigger) =>
      trigger === 'Stop'
        ? typeof doc.followup_message === 'string'
        : trigger === 'UserPromptSubmit'
          ? doc.continue === false
          : doc.permission === 'deny',
    reason: (doc, trigger) =>
      (trigger === 'Stop'
        ? doc.followup_message
        : trigger === 'UserPromptSubmit'
          ? doc.user_message
          : doc.agent_message) as string | undefined,
    context: (doc) => doc.additional_context as string | undefined,
  },
  windsurf: {
    folder: 'windsurf',
    env: {},
    fixtures: [
      {
        file: 'hook-input-pre_write_code.json',
        expect: { event: 'PreToolUse', agentEvent: 'pre_write_code', tool: 'MultiEdit', alsoTrigger: 'PostToolUse' },
      },
      { file: 'hook-input-post_write_code.json', expect: { event: 'PostToolUse', tool: 'MultiEdit' } },
      {
        file: 'hook-input-pre_run_command.json',
        expect: { event: 'PreToolUse', tool: 'Bash', agentTool: 'run_command', sessionId: 'traj-7f3e' },
        files: {},
      },
      { file: 'hook-input-pre_read_code.json', expect: { event: 'PreToolUse', tool: 'Read' } },
      {
        file: 'hook-input-pre_user_prompt.json',
        expect: { event: 'UserPromptSubmit', prompt: 'Add a payment module.' },
      },
      {
        file: 'hook-input-post_cascade_response.json',
        expect: { event: 'Stop', lastMessage: 'Done: added src/pay.ts.' },
      },
    ],
    ...exitCodeReading,
  },
  cline: {
    folder: 'cline',
    env: {},
    fixtures: [
      {
        file: 'hook-input-PreToolUse-write_to_file.json',
        expect: { event: 'PreToolUse', tool: 'Write', agentTool: 'write_to_file', sessionId: 'task-1736071200' },
        files: { 'src/pay.ts': 'update' },
      },
      {
        file: 'hook-input-PreToolUse-replace_in_file.json',
        expect: {
          event: 'PreToolUse',
          tool: 'MultiEdit',
          toolInput: expect.objectContaining({
            edits: [{ old_string: 'export const price = 42;', new_string: 'export const price = 43;' }],
          }),
        },
        files: { 'src/pay.ts': 'update' },
      },
      { file: 'hook-input-PreToolUse-execute_command.json', expect: { event: 'PreToolUse', tool: 'Bash' }, files: {} },
      {
        file: 'hook-input-PreToolUse-attempt_completion.json',
        expect: {
          event: 'Stop',
          agentEvent: 'attempt_completion',
          lastMessage: 'Added src/pay.ts.',
          stopHookActive: true,
        },
        files: {},
      },
      { file: 'hook-input-PostToolUse-execute_command.json', expect: { event: 'PostToolUse', tool: 'Bash' } },
      {
        file: 'hook-input-UserPromptSubmit.json',
        expect: { event: 'UserPromptSubmit', prompt: 'Add a payment module.' },
      },
      { file: 'hook-input-TaskStart.json', expect: { event: 'SessionStart', matcherValue: 'startup' } },
    ],
    // After a tool ran, Cline is not cancelled (that aborts the task): the refusal reaches the model as context.
    refuses: (doc, trigger) =>
      trigger === 'PostToolUse' ? !!doc.errorMessage && !!doc.contextModification : doc.cancel === true,
    reason: (doc, trigger) => (trigger === 'PostToolUse' ? doc.contextModification : doc.errorMessage) as string,
    context: (doc) => doc.contextModification as string | undefined,
  },
  kiro: {
    folder: 'kiro',
    env: {},
    fixtures: [
      {
        file: 'hook-input-preToolUse-fs_write-create.json',
        expect: {
          event: 'PreToolUse',
          tool: 'Write',
          agentTool: 'fs_write',
          toolKind: 'write',
          alsoTrigger: 'PostToolUse',
        },
        files: { 'src/pay.ts': 'update' },
      },
      {
        file: 'hook-input-preToolUse-fs_write-str_replace.json',
        expect: { event: 'PreToolUse', tool: 'Edit', agentTool: 'fs_write', toolKind: 'edit' },
      },
      { file: 'hook-input-preToolUse-execute_bash.json', expect: { event: 'PreToolUse', tool: 'Bash' }, files: {} },
      { file: 'hook-input-postToolUse-execute_bash.json', expect: { event: 'PostToolUse', tool: 'Bash' } },
      {
        file: 'hook-input-userPromptSubmit.json',
        expect: { event: 'UserPromptSubmit', prompt: 'Add a payment module.' },
      },
      { file: 'hook-input-agentSpawn.json', expect: { event: 'SessionStart', agentEvent: 'agentSpawn' } },
      { file: 'hook-input-stop.json', expect: { event: 'Stop', lastMessage: 'Added src/pay.ts.' } },
    ],
    ...exitCodeReading,
  },
  opencode: {
    folder: 'opencode',
    env: {},
    fixtures: [
      {
        file: 'hook-input-tool.execute.before-write.json',
        expect: { event: 'PreToolUse', tool: 'Write', agentTool: 'write', toolUseId: 'call_1' },
        files: { 'src/pay.ts': 'update' },
      },
      {
        file: 'hook-input-tool.execute.before-edit.json',
        expect: {
          event: 'PreToolUse',
          tool: 'Edit',
          toolInput: expect.objectContaining({ old_string: '42', new_string: '43' }),
        },
        files: { 'src/pay.ts': 'update' },
      },
      { file: 'hook-input-tool.execute.before-bash.json', expect: { event: 'PreToolUse', tool: 'Bash' }, files: {} },
      { file: 'hook-input-tool.execute.after-bash.json', expect: { event: 'PostToolUse', tool: 'Bash' } },
      { file: 'hook-input-chat.message.json', expect: { event: 'UserPromptSubmit', prompt: 'Add a payment module.' } },
      {
        file: 'hook-input-session.idle.json',
        expect: { event: 'Stop', stopHookActive: false, sessionId: 'ses_4f2a9c' },
      },
      {
        file: 'hook-input-subagent.stop.json',
        expect: {
          event: 'SubagentStop',
          sessionId: 'ses_4f2a9c',
          subagentId: 'ses_7b1d03',
          subagentType: 'general',
          lastMessage: expect.stringContaining('<task_result>'),
        },
      },
    ],
    ...pluginReading,
  },
  amp: {
    folder: 'amp',
    env: {},
    fixtures: [
      {
        file: 'hook-input-tool.call-create_file.json',
        expect: { event: 'PreToolUse', tool: 'Write', agentTool: 'create_file', alsoTrigger: 'PostToolUse' },
        files: { 'src/pay.ts': 'update' },
      },
      { file: 'hook-input-tool.call-edit_file.json', expect: { event: 'PreToolUse', tool: 'Edit' } },
      {
        file: 'hook-input-tool.call-Bash.json',
        expect: { event: 'PreToolUse', tool: 'Bash', toolInput: expect.objectContaining({ command: 'ls src' }) },
        files: {},
      },
    ],
    ...pluginReading,
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
        const input = fixture(cases.folder, c.file);
        const e = a.normalize(c.event ? { hook_event_name: c.event, ...input } : input, cases.env);
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
            if (!cases.decode) expect({ label, code: out.exitCode }).toEqual({ label, code: 0 });
            const doc = cases.decode ? cases.decode(out) : parse(out.stdout);
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
      if (cases.badInputRefused) expect(cases.badInputRefused(out)).toBe(true);
      else expect(out.exitCode).toBe(2);
      expect(out.stderr).toContain('the hook input is not JSON');
      expect(() => a.normalize([1, 2], cases.env)).toThrow(/not a JSON object/);
      expect(() => a.normalize({ cwd: ROOT }, cases.env)).toThrow(/hook_event_name/);
    });

    test("avp's own failure refuses wherever the agent can refuse, and names the kill switch", async () => {
      const a = await loadAgent(name);
      for (const [agentEvent, trigger] of Object.entries(a.events)) {
        const out = a.failClosed({ hook_event_name: agentEvent }, { kind: 'internal', message: 'boom' });
        const doc = cases.decode ? cases.decode(out) : parse(out.stdout);
        const label = `${name} ${agentEvent}`;
        if (!cases.decode) expect({ label, code: out.exitCode }).toEqual({ label, code: 0 });
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
      expect(a.install.path('user', ROOT, env).startsWith('/home/u/')).toBe(true);
    });
  });
}
