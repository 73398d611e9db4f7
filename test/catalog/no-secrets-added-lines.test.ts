/**
 * The lines a change adds, as the catalog's script validators read them (validators/no-secrets/scripts/added-lines.ts,
 * copied byte for byte into no-debug-leftovers): from a unified diff, from before/after texts, from the tool input
 * when the event has no file list, with line numbers in the file after the change.
 */
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changes, type HookEvent } from '../../validators/no-secrets/scripts/added-lines.ts';
import { tempDir } from '../support/run-avp.ts';

const ROOT = '/work/project';
const files = (...f: NonNullable<HookEvent['files']>) => changes({ projectRoot: ROOT, files: f });

describe('with a file list', () => {
  test('a diff: + lines numbered in the after file across hunks; headers before the first hunk ignored', () => {
    const diff = [
      '--- a/a.ts',
      '+++ b/a.ts',
      '@@ -1,3 +1,4 @@',
      ' one',
      '',
      '+two',
      ' three',
      '@@ -20 +21,2 @@',
      '-old',
      '+new1',
      '+new2',
      '\\ No newline at end of file',
    ].join('\n');
    expect(files({ relPath: 'a.ts', kind: 'update', before: 'x', after: 'y', diff })).toEqual([
      {
        file: 'a.ts',
        added: [
          { line: 3, text: 'two' },
          { line: 21, text: 'new1' },
          { line: 22, text: 'new2' },
        ],
        after: 'y',
      },
    ]);
  });
  test('a diff without hunks is not used: the before and after texts are compared instead', () => {
    expect(files({ relPath: 'a.ts', before: 'k\n', after: 'k\nv\n', diff: 'Binary files differ' })[0]!.added).toEqual([
      { line: 2, text: 'v' },
    ]);
  });
  test('before/after without a diff: the lines after has more of (repeated lines counted)', () => {
    const [c] = files({ relPath: 'a.ts', kind: 'update', before: 'a\nb\na\n', after: 'a\nb\na\na\nc\nc\n' });
    expect(c!.added).toEqual([
      { line: 4, text: 'a' },
      { line: 5, text: 'c' },
      { line: 6, text: 'c' },
    ]);
  });
  test('a created file: every line; a deleted file or a null after: nothing', () => {
    expect(files({ relPath: 'n.ts', kind: 'create', before: null, after: 'x\ny' })[0]!.added).toEqual([
      { line: 1, text: 'x' },
      { line: 2, text: 'y' },
    ]);
    expect(files({ relPath: 'd.ts', kind: 'delete', before: 'x', after: 'x' })).toEqual([{ file: 'd.ts', added: [] }]);
    const gone: HookEvent = {
      projectRoot: ROOT,
      toolInput: { file_path: `${ROOT}/d.ts`, content: 'x' },
      files: [{ path: `${ROOT}/d.ts`, relPath: 'd.ts', kind: 'update', before: 'x', after: null }],
    };
    expect(changes(gone)).toEqual([{ file: 'd.ts', added: [] }]);
    expect(files({ kind: 'create', after: 'x' })[0]!.file).toBe('');
  });
  test('a file named by an absolute path inside the project is made project-relative; one outside is kept', () => {
    const out = files(
      { path: `${ROOT}/src/a.ts`, kind: 'create', after: 'x' },
      { path: '/etc/app.conf', kind: 'create', after: 'x' },
      { path: `${ROOT}-other/b.ts`, kind: 'create', after: 'x' },
    );
    expect(out.map((c) => c.file)).toEqual(['src/a.ts', '/etc/app.conf', `${ROOT}-other/b.ts`]);
  });
  test('a listed file without content falls back to the tool input only when the input names that file', () => {
    const event = (path: string, relPath = 'nb.ipynb'): HookEvent => ({
      projectRoot: ROOT,
      toolInput: { notebook_path: `${ROOT}/nb.ipynb`, new_source: 'k = 1' },
      files: [{ path, relPath, kind: 'update' }],
    });
    expect(changes(event(`${ROOT}/nb.ipynb`))).toEqual([
      { file: 'nb.ipynb', added: [{ text: 'k = 1' }], after: undefined },
    ]);
    // Named by its absolute path or by its project path: either one is enough.
    expect(changes(event('/elsewhere/nb.ipynb'))[0]!.added).toEqual([{ text: 'k = 1' }]);
    expect(changes(event(`${ROOT}/nb.ipynb`, 'renamed.ipynb'))[0]!.added).toEqual([{ text: 'k = 1' }]);
    expect(changes(event(`${ROOT}/other.ipynb`, 'other.ipynb'))).toEqual([{ file: 'other.ipynb', added: [] }]);
    const { path: _, ...byRelPath } = event('').files![0]!;
    expect(changes({ ...event(''), files: [byRelPath] })[0]!.added).toEqual([{ text: 'k = 1' }]);
    expect(changes({ ...event(''), files: [{ path: `${ROOT}/other.ipynb`, kind: 'update' }] })).toEqual([
      { file: 'other.ipynb', added: [] },
    ]);
    expect(files({ path: `${ROOT}/nb.ipynb`, relPath: 'nb.ipynb', kind: 'update' })).toEqual([
      { file: 'nb.ipynb', added: [] },
    ]);
  });
});

describe('without a file list (the tool input)', () => {
  test('Write content: every line, numbered; the path made project-relative', () => {
    expect(changes({ projectRoot: ROOT, toolInput: { file_path: 'src/a.ts', content: 'x\ny' } })).toEqual([
      {
        file: 'src/a.ts',
        added: [
          { line: 1, text: 'x' },
          { line: 2, text: 'y' },
        ],
        after: 'x\ny',
      },
    ]);
  });
  test('Edit, MultiEdit and NotebookEdit strings; numbered where the file on disk already holds them', () => {
    const root = tempDir('avp-added-');
    writeFileSync(join(root, 'a.ts'), 'one\ntwo\nthree\nfour\n');
    const input = { file_path: join(root, 'a.ts'), new_string: 'three\nfour', edits: [{ new_string: 'gone' }, {}] };
    expect(changes({ cwd: root, toolInput: input })).toEqual([
      {
        file: 'a.ts',
        added: [{ line: 3, text: 'three' }, { line: 4, text: 'four' }, { text: 'gone' }],
        after: undefined,
      },
    ]);
    expect(changes({ cwd: root, toolInput: { file_path: 'a.ts', new_string: 'one' } })[0]!.added).toEqual([
      { line: 1, text: 'one' },
    ]);
    expect(changes({ cwd: root, toolInput: { file_path: 'missing.ts', new_string: 'x' } })).toEqual([
      { file: 'missing.ts', added: [{ text: 'x' }], after: undefined },
    ]);
  });
  test('no path, no input: nothing', () => {
    expect(changes({ projectRoot: ROOT, toolInput: { command: 'ls' } })).toEqual([]);
    expect(changes({ projectRoot: ROOT })).toEqual([]);
  });
});
