import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAgent } from '../../../src/agents/index.ts';
import { applyPatchSection, parsePatch, patchFromShell } from '../../../src/file-changes/patch.ts';
import { completeFileChanges } from '../../../src/file-changes/complete-files.ts';
import { tempDir } from '../../support/run-avp.ts';

const PATCH = [
  '*** Begin Patch',
  '*** Add File: src/new.ts',
  '+export const a = 1;',
  '+export const b = 2;',
  '*** Delete File: old.txt',
  '*** Update File: src/app.ts',
  '*** Move to: src/main.ts',
  '@@ function greet() {',
  ' function greet() {',
  '-  return "hi";',
  '+  return "hello";',
  ' }',
  '*** End Patch',
].join('\n');

describe('the apply_patch format', () => {
  test('one patch, several files: add, delete, update with a move', () => {
    expect(parsePatch(PATCH)).toEqual([
      { kind: 'add', path: 'src/new.ts', body: 'export const a = 1;\nexport const b = 2;\n' },
      { kind: 'delete', path: 'old.txt', body: '' },
      {
        kind: 'update',
        path: 'src/app.ts',
        moveTo: 'src/main.ts',
        body: '@@ function greet() {\n function greet() {\n-  return "hi";\n+  return "hello";\n }',
      },
    ]);
    expect(parsePatch('not a patch')).toBeUndefined();
  });

  test('a shell `apply_patch` with a here-document or a quoted argument; any other command is not a patch', () => {
    expect(patchFromShell(`apply_patch <<'PATCH'\n${PATCH}\nPATCH`)).toBe(PATCH);
    expect(patchFromShell(`apply_patch <<EOF\n${PATCH}\nEOF\n`)).toBe(PATCH);
    expect(patchFromShell(`apply_patch '${PATCH}'`)).toBe(PATCH);
    expect(patchFromShell('echo apply_patch')).toBeUndefined();
    expect(patchFromShell('cat x | apply_patch')).toBeUndefined();
  });

  test('rebuilding an update: hunks found in order (trailing spaces tolerated); a patch that does not apply gives nothing', () => {
    const body = parsePatch(PATCH)![2]!.body;
    expect(applyPatchSection('// top\nfunction greet() {\n  return "hi";\n}\n', body)).toBe(
      '// top\nfunction greet() {\n  return "hello";\n}\n',
    );
    expect(applyPatchSection('function greet() {  \n  return "hi";\n}', body)).toBe(
      'function greet() {\n  return "hello";\n}',
    );
    expect(applyPatchSection('something else\n', body)).toBeUndefined();
  });

  test('a hostile patch against a large file is given up within the work bound, not run for minutes', () => {
    const big = `${'a\n'.repeat(200_000)}`;
    const body = `@@\n${' a\n'.repeat(199)}-b`;
    const started = Date.now();
    expect(applyPatchSection(big, body)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('patches as file changes', () => {
  test('Codex apply_patch (PreToolUse): every file, each completed from disk; a Droid ApplyPatch reads the same', async () => {
    const root = tempDir('avp-patch-');
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/app.ts'), 'function greet() {\n  return "hi";\n}\n');
    writeFileSync(join(root, 'old.txt'), 'bye\n');
    const codex = await loadAgent('codex');
    const input = {
      session_id: 's',
      turn_id: 't',
      cwd: root,
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: PATCH },
    };
    const e = codex.normalize(input, {});
    expect(e).toMatchObject({ tool: 'Edit', agentTool: 'apply_patch', toolKind: 'edit', toolAliases: ['Write'] });
    expect(e.alsoTrigger).toBeUndefined();
    expect(e.files.map((f) => [f.relPath, f.kind])).toEqual([
      ['src/new.ts', 'create'],
      ['old.txt', 'delete'],
      ['src/main.ts', 'update'],
    ]);
    const done = await completeFileChanges(e);
    expect(done.files[0]!.after).toBe('export const a = 1;\nexport const b = 2;\n');
    expect(done.files[1]!).toMatchObject({ before: 'bye\n', after: null });
    expect(done.files[1]!.diff).toContain('-bye');
    expect(done.files[2]!).toMatchObject({
      before: 'function greet() {\n  return "hi";\n}\n',
      after: 'function greet() {\n  return "hello";\n}\n',
    });
    expect(done.files[2]!.diff).toContain('+  return "hello";');
    const droid = await loadAgent('droid');
    const d = droid.normalize({ ...input, tool_name: 'ApplyPatch', tool_input: { patch: PATCH } }, {});
    expect(d.files.map((f) => f.relPath)).toEqual(['src/new.ts', 'old.txt', 'src/main.ts']);
  });
});
