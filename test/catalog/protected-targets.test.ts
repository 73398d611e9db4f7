/**
 * protected-files: which paths a write is judged by. A symlink is judged by the file really written and by the name
 * used (either protected is enough), a project reached through a symlinked path still has its anchored entries, a
 * case-insensitive file system folds only where the engine says so, a path that names no file is skipped, and the
 * home folder is found without $HOME. Real folders and links on disk, the validator in-process.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HookEvent } from '../../src/protocol/event.ts';
import { parsePatterns, validate } from '../../validators/protected-files/scripts/check.ts';
import { tempDir } from '../support/run-avp.ts';

const bash = (command: string, root: string): HookEvent =>
  ({
    agent: 'claude',
    event: 'PreToolUse',
    tool: 'Bash',
    toolInput: { command },
    cwd: root,
    projectRoot: root,
    files: [],
    raw: {},
  }) as HookEvent;
const writeTool = (filePath: string, root: string): HookEvent =>
  ({
    agent: 'claude',
    event: 'PreToolUse',
    tool: 'Write',
    toolInput: { file_path: filePath, content: 'x' },
    cwd: root,
    projectRoot: root,
    files: [],
    raw: {},
  }) as HookEvent;
const blocked = (event: HookEvent, list: string) => validate(event, parsePatterns(list)).violations.map((v) => v.file);

describe('symlinks', () => {
  const root = realpathSync(tempDir('avp-pf-targets-'));
  writeFileSync(join(root, 'notes.txt'), 'n');
  symlinkSync('notes.txt', join(root, '.env'));
  symlinkSync('notes.txt', join(root, '.ENV.local'));
  writeFileSync(join(root, 'key.pem'), 'k');
  symlinkSync('key.pem', join(root, 'readme.txt'));

  test('a shell write through a protected name is refused though the file it reaches is not', () => {
    expect(blocked(bash('echo x > .env', root), '.env\n')).toEqual(['.env']);
  });
  test('a shell write through an ordinary name to a protected file is refused under the real name', () => {
    expect(blocked(bash('echo x > readme.txt', root), '*.pem\n')).toEqual(['key.pem']);
  });
  test('a link in the project to scratch space is judged by both paths, not skipped as scratch', () => {
    const scratch = realpathSync(tempDir('avp-pf-scratch-'));
    symlinkSync(scratch, join(root, 'out'));
    expect(blocked(bash('echo x > out/.env', root), '.env\n')).toEqual([join(scratch, '.env'), 'out/.env']);
  });
  test('a plain file is reported once; a name differing only in case is another file here', () => {
    expect(validate(bash('echo x > key.pem', root), parsePatterns('*.pem\n')).violations).toHaveLength(1);
    expect(blocked(bash('echo x > .ENV.local', root), '.env.local\n')).toEqual([]);
  });
});

describe('a project reached through a symlinked path', () => {
  const base = realpathSync(tempDir('avp-pf-linked-'));
  mkdirSync(join(base, 'proj', 'secrets'), { recursive: true });
  symlinkSync(join(base, 'proj'), join(base, 'link'));
  const linked = join(base, 'link');
  const list = '/secrets/*.pem\n';

  test('anchored entries still match, for shell writes and file tools', () => {
    expect(blocked(bash('echo x > secrets/k.pem', linked), list)).toEqual(['secrets/k.pem']);
    expect(blocked(writeTool(join(linked, 'secrets', 'k.pem'), linked), list)).toEqual(['secrets/k.pem']);
    // The same file by its real path, with no link in it: judged where it sits in the project all the same.
    expect(blocked(bash(`echo x > ${join(base, 'proj', 'secrets', 'k.pem')}`, linked), list)).toEqual([
      'secrets/k.pem',
    ]);
  });
  test('opened by its real path, a write through the link is still in the project (not scratch space in /tmp)', () => {
    const real = join(base, 'proj');
    expect(blocked(bash(`echo x > ${join(linked, 'secrets', 'k.pem')}`, real), list)).toEqual(['secrets/k.pem']);
  });
  test('a file outside the project whose path has the same shape is not under an anchored entry', () => {
    const outside = join(base, 'copy', 'secrets', 'k.pem');
    expect(blocked(writeTool(outside, join(base, 'proj')), list)).toEqual([]);
    expect(blocked(bash(`echo x > ${outside}`, join(base, 'proj')), list)).toEqual([]);
  });
});

describe('paths that name no file, and case', () => {
  const root = realpathSync(tempDir('avp-pf-none-'));
  test('an empty file_path or a file entry without a path is skipped, even when every name is protected', () => {
    expect(blocked(writeTool('', root), '*\n')).toEqual([]);
    const entry = {
      ...writeTool(join(root, 'a'), root),
      toolInput: {},
      files: [{ inProject: true, kind: 'update' }],
    } as HookEvent;
    expect(blocked(entry, '*\n')).toEqual([]);
  });

  test('home entries fold case only for a file the engine marks case-insensitive', () => {
    // The home folder's own spelling differs too: on such a file system it is the same folder.
    const path = join(homedir().toUpperCase(), '.SSH', 'Authorized_Keys');
    const file = (caseInsensitive: boolean) =>
      ({
        ...writeTool(path, root),
        files: [{ path, relPath: path, inProject: false, kind: 'update', after: 'k', caseInsensitive }],
      }) as HookEvent;
    expect(blocked(file(true), '~/.ssh/authorized_keys\n')).toEqual([path]);
    expect(blocked(file(false), '~/.ssh/authorized_keys\n')).toEqual([]);
    // Case-sensitive: another spelling of the home folder is another folder, whatever follows it.
    const other = join(homedir().toUpperCase(), '.ssh', 'authorized_keys');
    const exact = { ...file(false), files: [{ ...file(false).files[0]!, path: other, relPath: other }] } as HookEvent;
    expect(blocked(exact, '~/.ssh/authorized_keys\n')).toEqual([]);
  });
});

test('without $HOME the home folder is still found for a shell write', () => {
  const root = realpathSync(tempDir('avp-pf-nohome-'));
  const saved = process.env.HOME;
  delete process.env.HOME;
  try {
    expect(blocked(bash('echo k >> ~/.ssh/authorized_keys', root), '~/.ssh/authorized_keys\n')).toHaveLength(1);
  } finally {
    process.env.HOME = saved;
  }
});
