import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { completeFileChanges } from '../../../src/file-changes/complete-files.ts';
import { normalizeClaudeEvent } from '../../../src/agents/claude/index.ts';
import { AvpError } from '../../../src/errors.ts';
import { tempDir } from '../../support/run-avp.ts';

const FIXTURES = join(import.meta.dir, '../../fixtures/hook/claude-code');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
const env = { CLAUDE_PROJECT_DIR: '/home/dev/project' };

describe('normalizeClaudeEvent on captured inputs', () => {
  test('PostToolUse Write of a new file: create, no before, full-add diff, project-relative path', () => {
    const e = normalizeClaudeEvent(fixture('hook-input-PostToolUse-Write.json'), env);
    expect(e.agent).toBe('claude');
    expect(e.event).toBe('PostToolUse');
    expect(e.tool).toBe('Write');
    expect(e.sessionId).toBe('a27d19bd-40c9-40a3-b0ea-6d30f9d09f37');
    expect(e.projectRoot).toBe('/home/dev/project');
    expect(e.matcherValue).toBe('Write');
    expect(e.files).toHaveLength(1);
    const f = e.files[0]!;
    expect(f).toMatchObject({
      path: '/home/dev/project/src/config.ts',
      relPath: 'src/config.ts',
      inProject: true,
      kind: 'create',
      before: null,
    });
    expect(f.after).toBe('const API_KEY = "sk-live-1234567890abcdef";\n');
    expect(f.diff).toBe(
      '--- /dev/null\n+++ b/src/config.ts\n@@ -0,0 +1,1 @@\n+const API_KEY = "sk-live-1234567890abcdef";\n',
    );
  });

  test('PostToolUse Edit: before from originalFile, diff from structuredPatch; after once a validator needs it', async () => {
    const normalized = normalizeClaudeEvent(fixture('hook-input-PostToolUse-Edit.json'), env);
    // Rebuilding `after` can cost in proportion to the input (replace_all chains): never before matching.
    expect(normalized.files[0]!.after).toBeUndefined();
    const e = await completeFileChanges(normalized);
    const f = e.files[0]!;
    expect(f.kind).toBe('update');
    expect(f.before).toBe('const API_KEY = "sk-live-1234567890abcdef";\n');
    expect(f.after).toBe('const API_KEY = process.env.API_KEY;\n');
    expect(f.diff).toBe(
      '--- a/src/config.ts\n+++ b/src/config.ts\n@@ -1,1 +1,1 @@\n-const API_KEY = "sk-live-1234567890abcdef";\n+const API_KEY = process.env.API_KEY;\n',
    );
  });

  test('Stop: no files, stop_hook_active carried, unknown fields kept in raw', () => {
    const e = normalizeClaudeEvent(fixture('hook-input-Stop-active.json'), env);
    expect(e.event).toBe('Stop');
    expect(e.files).toEqual([]);
    expect(e.stopHookActive).toBe(true);
    expect(e.tool).toBeUndefined();
    expect(e.raw.session_crons).toEqual([]);
    expect(normalizeClaudeEvent(fixture('hook-input-Stop.json'), env).stopHookActive).toBe(false);
  });
});

describe('normalizeClaudeEvent on every event of the protocol', () => {
  const base = { session_id: 's1', transcript_path: '/t.jsonl', cwd: '/home/dev/project' };
  const cases: Array<[string, Record<string, unknown>, string | undefined]> = [
    ['SessionStart', { source: 'resume' }, 'resume'],
    ['SessionEnd', { reason: 'logout' }, 'logout'],
    ['PreCompact', { trigger: 'auto', custom_instructions: '' }, 'auto'],
    ['Setup', { trigger: 'init' }, 'init'],
    ['Notification', { message: 'hi', notification_type: 'idle_prompt' }, 'idle_prompt'],
    ['SubagentStart', { agent_id: 'a', agent_type: 'Explore' }, 'Explore'],
    ['SubagentStop', { agent_id: 'a', agent_type: 'Plan', stop_hook_active: false }, 'Plan'],
    ['UserPromptSubmit', { prompt: 'do it' }, undefined],
    ['PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'ls' }, permission_suggestions: [] }, 'Bash'],
    ['PostToolUseFailure', { tool_name: 'Bash', tool_input: { command: 'false' }, error: 'exit 1' }, 'Bash'],
    ['PostToolBatch', { anything: 1 }, undefined],
  ];
  for (const [name, extra, matcher] of cases) {
    test(`${name} → matcherValue ${matcher}`, () => {
      const e = normalizeClaudeEvent({ ...base, hook_event_name: name, ...extra }, env);
      expect(e.event).toBe(name);
      expect(e.matcherValue).toBe(matcher);
      expect(e.files).toEqual([]);
    });
  }
});

describe('tool inputs', () => {
  const post = (tool: string, input: Record<string, unknown>, response?: unknown) =>
    normalizeClaudeEvent(
      {
        hook_event_name: 'PostToolUse',
        cwd: '/home/dev/project',
        tool_name: tool,
        tool_input: input,
        tool_response: response,
      },
      env,
    );

  test('Write update with structuredPatch', () => {
    const e = post(
      'Write',
      { file_path: '/home/dev/project/a.txt', content: 'x\ny\n' },
      {
        type: 'update',
        originalFile: 'x\n',
        content: 'x\ny\n',
        structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2, lines: [' x', '+y'] }],
      },
    );
    expect(e.files[0]).toMatchObject({ kind: 'update', before: 'x\n', after: 'x\ny\n' });
    expect(e.files[0]!.diff).toContain('@@ -1,1 +1,2 @@\n x\n+y\n');
  });

  test('MultiEdit applies every edit in order; replace_all honoured', async () => {
    const normalized = post(
      'MultiEdit',
      {
        file_path: 'rel/b.ts',
        edits: [
          { old_string: 'a', new_string: 'b', replace_all: true },
          { old_string: 'bc', new_string: 'X' },
        ],
      },
      {
        originalFile: 'a a c\nac\n',
      },
    );
    const e = await completeFileChanges(normalized);
    expect(e.files[0]!.path).toBe('/home/dev/project/rel/b.ts');
    expect(e.files[0]!.relPath).toBe('rel/b.ts');
    expect(e.files[0]!.after).toBe('b b c\nX\n');
  });

  test('NotebookEdit: the notebook path and a diff of the cell source', () => {
    const e = post('NotebookEdit', {
      notebook_path: '/home/dev/project/nb.ipynb',
      cell_id: 'c1',
      new_source: 'print(1)\n',
    });
    expect(e.files[0]!.relPath).toBe('nb.ipynb');
    expect(e.files[0]!.diff).toContain('(cell c1)');
    expect(e.files[0]!.diff).toContain('+print(1)');
  });

  test('a file outside the project keeps its absolute path', () => {
    const e = post('Write', { file_path: '/etc/hosts', content: '' }, { type: 'update', originalFile: '' });
    expect(e.files[0]).toMatchObject({ relPath: '/etc/hosts', inProject: false });
  });

  test('Bash carries no files from the input (session tracking adds them)', () => {
    expect(post('Bash', { command: 'sed -i s/a/b/ x' }).files).toEqual([]);
  });
});

describe('PreToolUse: the proposal is completed from disk only when asked', () => {
  test('Edit on an existing file: before read, edit applied, diff computed', async () => {
    const root = tempDir('avp-e-pre-');
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/a.ts'), 'one\ntwo\nthree\n');
    const e = normalizeClaudeEvent(
      {
        hook_event_name: 'PreToolUse',
        cwd: root,
        tool_name: 'Edit',
        tool_input: { file_path: join(root, 'src/a.ts'), old_string: 'two', new_string: 'TWO' },
      },
      { CLAUDE_PROJECT_DIR: root },
    );
    expect(e.files[0]!.before).toBeUndefined();
    const done = await completeFileChanges(e);
    expect(done.files[0]).toMatchObject({ kind: 'update', before: 'one\ntwo\nthree\n', after: 'one\nTWO\nthree\n' });
    expect(done.files[0]!.diff).toContain('-two\n+TWO\n');
  });

  test('Write of a new file becomes a create', async () => {
    const root = tempDir('avp-e-pre-');
    const e = normalizeClaudeEvent(
      {
        hook_event_name: 'PreToolUse',
        cwd: root,
        tool_name: 'Write',
        tool_input: { file_path: join(root, 'n.ts'), content: 'x\n' },
      },
      { CLAUDE_PROJECT_DIR: root },
    );
    const done = await completeFileChanges(e);
    expect(done.files[0]).toMatchObject({ kind: 'create', before: null, after: 'x\n' });
    expect(done.files[0]!.diff).toContain('--- /dev/null');
  });
});

describe('bad input', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['an array', [1], /an array/],
    ['null', null, /null/],
    ['a string', 'x', /a string/],
    ['no event name', { cwd: '/' }, /no "hook_event_name"/],
    ['a numeric event name', { hook_event_name: 3 }, /must be an event name/],
    ['a non-string cwd', { hook_event_name: 'Stop', cwd: 5 }, /"cwd" must be a string/],
    [
      'a non-object tool_input',
      { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: 'x' },
      /"tool_input" must be an object/,
    ],
  ];
  for (const [what, input, message] of bad) {
    test(what, () => {
      let err: unknown;
      try {
        normalizeClaudeEvent(input, env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AvpError);
      expect((err as AvpError).code).toBe('hook-input');
      expect((err as AvpError).message).toMatch(message);
      expect((err as AvpError).fix).toBeTruthy();
    });
  }
});
