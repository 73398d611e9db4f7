/**
 * A created file's diff is its whole text again: it is built only when something reads it, so a big Write matched by
 * a path rule alone (or by nothing) never pays for it — and whoever reads it gets exactly the text it always was.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { normalizeClaudeEvent } from '../../../src/agents/claude/index.ts';
import { completeFileChanges } from '../../../src/file-changes/complete-files.ts';
import { diffForCreate, hasDiff, setCreateDiff } from '../../../src/file-changes/diff.ts';
import { lazyProperty } from '../../../src/file-changes/lazy.ts';
import type { FileChange } from '../../../src/protocol/event.ts';
import { tempDir } from '../../support/run-avp.ts';

const unbuilt = (f: FileChange) => Object.getOwnPropertyDescriptor(f, 'diff')?.get !== undefined;

describe('lazyProperty', () => {
  test('computed on the first read only, enumerable, and plain once assigned', () => {
    let runs = 0;
    const o: Record<string, unknown> = { a: 1 };
    lazyProperty(o, 'b', () => ++runs);
    expect(runs).toBe(0);
    expect(Object.keys(o)).toEqual(['a', 'b']);
    expect([o.b, o.b]).toEqual([1, 1]);
    expect(runs).toBe(1);
    o.b = 'set';
    expect(Object.getOwnPropertyDescriptor(o, 'b')).toEqual({
      value: 'set',
      enumerable: true,
      configurable: true,
      writable: true,
    });
  });
});

describe("a created file's diff", () => {
  const text = 'export const a = 1;\nexport const b = 2;\n';

  test('reads, serializes and copies as the text diffForCreate gives', () => {
    const change: FileChange = { path: '/p/src/a.ts', relPath: 'src/a.ts', inProject: true, kind: 'create' };
    setCreateDiff(change, 'src/a.ts', text);
    expect(hasDiff(change)).toBe(true);
    expect(unbuilt(change)).toBe(true);
    const plain = { ...change, diff: diffForCreate('src/a.ts', text) };
    expect(JSON.stringify(change)).toBe(JSON.stringify(plain));
    expect({ ...change }).toEqual(plain);
    expect(change.diff).toBe(
      '--- /dev/null\n+++ b/src/a.ts\n@@ -0,0 +1,2 @@\n+export const a = 1;\n+export const b = 2;\n',
    );
    change.diff = 'replaced';
    expect(change.diff).toBe('replaced');
  });

  test('hasDiff tells no diff apart without building one', () => {
    const change: FileChange = { path: '/p/a', relPath: 'a', inProject: true, kind: 'update' };
    expect(hasDiff(change)).toBe(false);
    change.diff = undefined;
    expect(hasDiff(change)).toBe(false);
    change.diff = '';
    expect(hasDiff(change)).toBe(true);
  });

  test('a Write of a new file, after the tool ran or before: unbuilt until read, then the full-add diff', async () => {
    const root = tempDir('avp-create-diff-');
    const file = join(root, 'src/new.ts');
    const base = { session_id: 's', transcript_path: '/dev/null', cwd: root, tool_name: 'Write' };
    const after = normalizeClaudeEvent(
      {
        ...base,
        hook_event_name: 'PostToolUse',
        tool_input: { file_path: file, content: text },
        tool_response: { type: 'create', filePath: file, content: text, structuredPatch: [], originalFile: null },
      },
      { CLAUDE_PROJECT_DIR: root },
    );
    const before = normalizeClaudeEvent(
      { ...base, hook_event_name: 'PreToolUse', tool_input: { file_path: file, content: text } },
      { CLAUDE_PROJECT_DIR: root },
    );
    for (const event of [after, before]) {
      const [f] = (await completeFileChanges(event)).files;
      expect(f!.kind).toBe('create');
      expect(unbuilt(f!)).toBe(true);
      expect(f!.diff).toBe(diffForCreate('src/new.ts', text));
    }
  });
});
