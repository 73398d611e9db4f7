/**
 * The Cline CLI's dialect (src/agents/cline/cli.ts), on inputs captured from the real CLI (`cline` 3.0.65,
 * test/fixtures/hook/cline/hook-input-cli-*.json): its runtime's event names, its tools, and the answers it reads
 * (it ignores the exit code, and `cancel` at a tool call aborts the whole run).
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import cline from '../../../src/agents/cline/index.ts';
import type { Decision } from '../../../src/agents/types.ts';

const FIXTURES = join(import.meta.dir, '../../fixtures/hook/cline');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, `hook-input-cli-${name}.json`), 'utf8'));
const REASON = 'avp denied Write: [no-secrets] a hard-coded key';
const deny: Decision = {
  kind: 'deny',
  reason: REASON,
  userMessage: REASON,
  avp: { passed: false, violations: [], summary: 'x' },
};
const answer = (input: unknown) => {
  const out = cline.render(cline.normalize(input, {}), deny);
  expect(out.exitCode).toBe(0);
  return JSON.parse(out.stdout);
};

describe('Cline CLI inputs (captured) normalize', () => {
  test('tool_call of editor without old_text: a Write of new_text, judged before it is written', () => {
    const e = cline.normalize(fixture('tool_call-editor-create'), {});
    expect(e).toMatchObject({ event: 'PreToolUse', tool: 'Write', agentTool: 'editor', toolKind: 'write' });
    expect(e).toMatchObject({ alsoTrigger: 'PostToolUse', sessionId: 'conv_1795453912444_kcjj4th' });
    expect(e.toolInput).toMatchObject({
      file_path: '/home/dev/project/src/pay.ts',
      content: 'export const price = 42;\n',
    });
    expect(e.files.map((f) => f.relPath)).toEqual(['src/pay.ts']);
    expect(e.cwd).toBe('/home/dev/project');
  });

  test('tool_call of editor with old_text: an Edit', () => {
    const e = cline.normalize(fixture('tool_call-editor-edit'), {});
    expect(e).toMatchObject({ event: 'PreToolUse', tool: 'Edit', agentTool: 'editor', toolKind: 'edit' });
    expect(e.toolInput).toMatchObject({
      old_string: 'export const price = 42;',
      new_string: 'export const price = 43;',
    });
    expect(e.files.map((f) => f.relPath)).toEqual(['src/pay.ts']);
  });

  test('run_commands: Bash with every command of the call, from the call itself (not the JSON-encoded copy)', () => {
    const pre = cline.normalize(fixture('tool_call-run_commands'), {});
    expect(pre).toMatchObject({ event: 'PreToolUse', tool: 'Bash', agentTool: 'run_commands', toolKind: 'shell' });
    expect(pre.toolInput?.command).toBe('printf shell-ran > from-shell.txt');
    const two = fixture('tool_call-run_commands');
    two.tool_call.input.commands = ['ls', 'rm -rf ~'];
    expect(cline.normalize(two, {}).toolInput?.command).toBe('ls\nrm -rf ~');
    const post = cline.normalize(fixture('tool_result-run_commands'), {});
    expect(post).toMatchObject({ event: 'PostToolUse', tool: 'Bash', agentTool: 'run_commands' });
  });

  test('tool_result of editor, agent_start and agent_end', () => {
    expect(cline.normalize(fixture('tool_result-editor-create'), {})).toMatchObject({
      event: 'PostToolUse',
      tool: 'Write',
    });
    expect(cline.normalize(fixture('agent_start'), {})).toMatchObject({
      event: 'SessionStart',
      agentEvent: 'TaskStart',
    });
    expect(cline.normalize(fixture('agent_end'), {})).toMatchObject({
      event: 'SessionEnd',
      agentEvent: 'TaskComplete',
    });
  });
});

describe('answers the Cline CLI reads', () => {
  test('a refused editor or run_commands call: its input replaced by null (refused by the tool), the reason as context', () => {
    for (const name of ['tool_call-editor-create', 'tool_call-editor-edit', 'tool_call-run_commands']) {
      const doc = answer(fixture(name));
      expect({ name, doc }).toEqual({
        name,
        doc: { cancel: false, errorMessage: REASON, contextModification: REASON, overrideInput: null },
      });
    }
  });

  test('a refused call of any other tool is cancelled (the run ends, the tool never runs)', () => {
    const input = fixture('tool_call-run_commands');
    input.tool_call = {
      id: 'c1',
      name: 'fetch_web_content',
      input: { requests: [{ url: 'https://x.test', prompt: 'p' }] },
    };
    input.preToolUse = { toolName: 'fetch_web_content', parameters: {} };
    const doc = answer(input);
    expect(doc.cancel).toBe(true);
    expect(doc.overrideInput).toBeUndefined();
  });

  test("the extension's PreToolUse is still cancelled (it skips the tool and goes on)", () => {
    const input = fixture('tool_call-editor-create');
    const legacy = { ...input, hookName: 'PreToolUse', tool_call: undefined };
    legacy.preToolUse = { toolName: 'write_to_file', parameters: { path: 'src/pay.ts', content: 'x' } };
    expect(answer(legacy)).toMatchObject({ cancel: true, errorMessage: REASON });
  });

  test('input avp cannot read: a JSON cancel on stdout too (the CLI ignores exit codes)', () => {
    const out = cline.failClosed('not an object', { kind: 'bad-input', message: 'the hook input is not JSON' });
    expect(out.exitCode).toBe(2);
    expect(JSON.parse(out.stdout)).toMatchObject({ cancel: true });
  });

  test("avp's own failure after a CLI tool ran is context, not a cancel (that would abort the run)", () => {
    const out = cline.failClosed(fixture('tool_result-run_commands'), { kind: 'internal', message: 'boom' });
    const doc = JSON.parse(out.stdout);
    expect(doc.cancel).toBe(false);
    expect(doc.contextModification).toContain('AVP_DISABLE=1');
  });

  test("avp's own failure before a CLI tool runs refuses that call, not the whole run", () => {
    const out = cline.failClosed(fixture('tool_call-run_commands'), { kind: 'internal', message: 'boom' });
    const doc = JSON.parse(out.stdout);
    // The call's input is replaced by one run_commands refuses; the run goes on and the model reads why.
    expect(doc).toMatchObject({ cancel: false, overrideInput: null });
    expect(doc.contextModification).toContain('AVP_DISABLE=1');
    expect(out.stderr).toContain('boom');
  });
});

describe("yolo mode's completion tool is avp's Stop", () => {
  const SUMMARY = 'All done, stopping now.';
  const submit = () => {
    const input = fixture('tool_call-run_commands');
    input.tool_call = { id: 'call_1', name: 'submit_and_exit', input: { summary: SUMMARY, verified: true } };
    input.preToolUse = { toolName: 'submit_and_exit', parameters: { summary: SUMMARY, verified: 'true' } };
    return input;
  };
  const STOP_REASON = 'avp blocked Stop: [always-fail-stop] never passes';
  const block: Decision = { ...deny, kind: 'block', reason: STOP_REASON, userMessage: STOP_REASON };

  test('a tool_call of submit_and_exit: a Stop with its summary as the last message, no tool', () => {
    const e = cline.normalize(submit(), {});
    expect(e).toMatchObject({ event: 'Stop', agentEvent: 'attempt_completion', lastMessage: SUMMARY });
    expect(e.tool).toBeUndefined();
    expect(e.stopHookActive).toBe(true);
  });

  test('a blocked Stop refuses the call (null input) and goes on, never a cancel (that would abort the run)', () => {
    const doc = JSON.parse(cline.render(cline.normalize(submit(), {}), block).stdout);
    expect(doc).toMatchObject({ cancel: false, overrideInput: null, contextModification: STOP_REASON });
    expect(Object.hasOwn(doc, 'overrideInput')).toBe(true);
  });

  test('an allowed Stop lets the call through untouched', () => {
    const allow: Decision = { kind: 'pass', avp: { passed: true, violations: [], summary: 'ok' } };
    const doc = JSON.parse(cline.render(cline.normalize(submit(), {}), allow).stdout);
    expect(doc.cancel).toBe(false);
    expect(Object.hasOwn(doc, 'overrideInput')).toBe(false);
  });

  test("the extension's attempt_completion is still cancelled with the reason (its own way to go on)", () => {
    const input = { hookName: 'PreToolUse', taskId: 't1', workspaceRoots: ['/home/dev/project'] } as any;
    input.preToolUse = { toolName: 'attempt_completion', parameters: { result: SUMMARY } };
    const e = cline.normalize(input, {});
    expect(e).toMatchObject({ event: 'Stop', lastMessage: SUMMARY });
    expect(JSON.parse(cline.render(e, block).stdout)).toMatchObject({ cancel: true, errorMessage: STOP_REASON });
  });
});
