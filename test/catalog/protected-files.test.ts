/**
 * protected-files beyond the corpus: which paths a tool call is judged by (the engine's file list with its real and
 * named paths, else the tool input, else the files a shell command writes — symlinks followed both ways), the
 * `[credentials]` qualifier's reading of the file and the change, and the verdict's exact words.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parsePatterns, protectedBy, validate } from '../../validators/protected-files/scripts/check.ts';
import { tempDir } from '../support/run-avp.ts';

const LIST = parsePatterns('# reason: secrets stay put\n.env\nvault/\n/conf/app.yml\n**/secret.txt\nplain.key\n');
const ROOT = '/work/project';
type Ev = Parameters<typeof validate>[0];
const files = (fs: NonNullable<Ev['files']>, root = ROOT): Ev => ({
  tool: 'Write',
  projectRoot: root,
  cwd: root,
  files: fs,
});
const denied = (ev: Ev, list = LIST) => validate(ev, list).violations.map((v) => v.file);

describe("the engine's file list", () => {
  test('path (relative or absolute) or relPath; an entry with neither is skipped', () => {
    expect(denied(files([{ path: '.env' }]))).toEqual(['.env']);
    expect(denied(files([{ path: `${ROOT}/conf/app.yml` }]))).toEqual(['conf/app.yml']);
    expect(denied(files([{ relPath: 'conf/app.yml' }]))).toEqual(['conf/app.yml']);
    expect(denied(files([{}, { path: 'ok.txt' }]))).toEqual([]);
  });
  test('a path outside the project keeps its absolute form: anchored patterns never match it', () => {
    expect(denied(files([{ path: '/work/project-b/conf/app.yml' }]))).toEqual([]);
    expect(denied(files([{ path: '/elsewhere/secret.txt' }]))).toEqual([]);
    expect(denied(files([{ path: '/elsewhere/.env' }]))).toEqual(['/elsewhere/.env']);
  });
  test('case folded only when the entry says the file system folds (caseInsensitive: true)', () => {
    expect(denied(files([{ path: '.ENV', caseInsensitive: true }]))).toEqual(['.ENV']);
    expect(denied(files([{ path: '.ENV' }]))).toEqual([]);
    expect(denied(files([{ path: '.ENV', caseInsensitive: 'yes' as unknown as boolean }]))).toEqual([]);
  });
  test('the named path of a symlinked file is judged too; each path is reported once', () => {
    expect(denied(files([{ path: `${ROOT}/notes.txt`, namedPath: `${ROOT}/.env` }]))).toEqual(['.env']);
    expect(denied(files([{ path: `${ROOT}/.env`, namedPath: `${ROOT}/notes.txt` }]))).toEqual(['.env']);
    expect(denied(files([{ path: `${ROOT}/.env`, namedPath: `${ROOT}/.env` }]))).toEqual(['.env']);
    expect(denied(files([{ path: '.env' }, { relPath: '.env' }]))).toEqual(['.env']);
  });
});

describe('the tool input, when there is no file list', () => {
  const root = tempDir('avp-pf-input-');
  mkdirSync(join(root, 'vault'));
  symlinkSync(join(root, 'vault'), join(root, 'secrets'));
  writeFileSync(join(root, '.env'), 'A=1\n');
  symlinkSync(join(root, '.env'), join(root, 'link.txt'));
  const input = (toolInput: Record<string, unknown>, cwd = root): Ev => ({
    tool: 'Write',
    projectRoot: root,
    cwd,
    toolInput,
  });
  test('file_path relative to cwd or absolute; a missing file judged where it would be created, links followed', () => {
    expect(denied(input({ file_path: '.env' }))).toEqual(['.env']);
    expect(denied(input({ file_path: '../.env' }, join(root, 'vault')))).toEqual(['.env']);
    expect(denied(input({ file_path: join(root, 'secrets/new.key') }))).toEqual(['vault/new.key']);
    expect(denied(input({ file_path: join(root, 'link.txt') }))).toEqual(['.env']);
  });
  test('no path, an empty one or one that is not a string: nothing to judge', () => {
    for (const file_path of ['', 42, undefined]) expect(denied(input({ file_path }))).toEqual([]);
  });
  test('the case of a tool-input path is kept (the file system is not known to fold)', () => {
    expect(denied(input({ file_path: '.ENV' }))).toEqual([]);
  });
  test('a command is read only when no file_path is given', () => {
    expect(denied(input({ command: 'echo x > .env', file_path: 'ok.txt' }))).toEqual([]);
    expect(denied(input({ command: 'echo x > .env' }))).toEqual(['.env']);
    expect(denied(input({ command: 'echo x' }))).toEqual([]);
  });
  test("a relative shell write is resolved against the session's cwd, not the project root", () => {
    mkdirSync(join(root, 'conf'), { recursive: true });
    expect(denied(input({ command: 'echo x > app.yml' }, join(root, 'conf')))).toEqual(['conf/app.yml']);
    expect(denied(input({ command: 'echo x > app.yml' }))).toEqual([]);
  });
  test('a shell write is judged by the file written and by the name used', () => {
    expect(denied(input({ command: 'echo x > link.txt' }))).toEqual(['.env']);
    expect(denied(input({ command: 'echo x > secrets/a' }))).toEqual(['vault/a']);
    expect(denied(input({ command: 'echo x > .ENV' }))).toEqual([]);
  });
  test('every writing redirection counts: > >> >| &> &>> <>', () => {
    for (const op of ['>', '>>', '>|', '&>', '&>>', '<>'])
      expect({ op, denied: denied(input({ command: `echo x ${op} .env` })) }).toEqual({ op, denied: ['.env'] });
    expect(denied(input({ command: 'cat < .env' }))).toEqual([]);
  });
  test('a target that is not a local path is skipped: variables, substitutions, URLs, host:path', () => {
    for (const t of ['$DIR/.env', '`pwd`/.env', 's3://b/.env', 'host:.env', 'user@host:.env'])
      expect({ t, denied: denied(input({ command: `cp a ${t}` })) }).toEqual({ t, denied: [] });
    expect(denied(input({ command: 'cp a ~/x/.env' }))).toEqual([join(homedir(), 'x/.env')]);
  });
  test('options are not files: `--` ends them, valued ones take their value, -t names the directory', () => {
    const dash = parsePatterns('-secret\nvault/\n.env');
    expect(denied(input({ command: 'tee -a -- -secret' }), dash)).toEqual(['-secret']);
    expect(denied(input({ command: 'tee -secret' }), dash)).toEqual([]);
    expect(denied(input({ command: 'truncate -r .env notes.txt' }))).toEqual([]);
    expect(denied(input({ command: 'cp -t vault a' }))).toEqual(['vault/a']);
  });
  test('a copy into an existing directory writes the file of the same name there; `-` is stdin, an operand', () => {
    expect(denied(input({ command: 'cp /tmp/x/.env vault' }))).toEqual(['vault/.env']);
    expect(denied(input({ command: 'cp /tmp/x/.env notadir' }))).toEqual([]);
    expect(denied(input({ command: 'tee - .env' }))).toEqual(['.env']);
  });
});

describe('[credentials] entries', () => {
  const root = tempDir('avp-pf-cred-');
  const list = parsePatterns('.npmrc [credentials]\n');
  const at = (name: string, toolInput: Record<string, unknown>): Ev => ({
    tool: 'MultiEdit',
    projectRoot: root,
    cwd: root,
    toolInput: { file_path: join(root, name), ...toolInput },
  });
  test('a file without a credential, and a change adding none, is free; a missing file too', () => {
    writeFileSync(join(root, '.npmrc'), 'registry=https://r.example/\n');
    expect(denied(at('.npmrc', { edits: [{ new_string: 'save-exact=true' }] }), list)).toEqual([]);
    expect(denied(at('gone/.npmrc', { edits: [{ new_string: 'x' }] }), list)).toEqual([]);
  });
  test('each MultiEdit edit is its own line of the change', () => {
    const ev = at('gone/.npmrc', { edits: [{ new_string: 'x' }, { new_string: 'password=hunter22' }] });
    expect(denied(ev, list)).toEqual(['gone/.npmrc']);
  });
  test('a file of a million bytes or more is not read', () => {
    mkdirSync(join(root, 'big'));
    writeFileSync(join(root, 'big/.npmrc'), `//r/:_authToken=abc123def\n`.padEnd(1_000_000, '#'));
    expect(denied(at('big/.npmrc', { edits: [{ new_string: 'x' }] }), list)).toEqual([]);
    writeFileSync(join(root, 'big/.npmrc'), `//r/:_authToken=abc123def\n`.padEnd(999_999, '#'));
    expect(denied(at('big/.npmrc', { edits: [{ new_string: 'x' }] }), list)).toEqual(['big/.npmrc']);
  });
});

describe("the verdict's words", () => {
  test('one file: rule, file, snippet, the pattern and its line and reason, the suggestion, the summary', () => {
    expect(validate(files([{ path: '.env' }]), LIST)).toEqual({
      passed: false,
      violations: [
        {
          rule: 'protected-file',
          file: '.env',
          snippet: 'Write .env',
          message: 'protected by `.env` (protected.txt line 2): secrets stay put',
          suggestion:
            "Do not edit this file; tell the user what change is needed and why. To allow it, remove or negate the pattern in the protected-files validator's references/protected.txt.",
        },
      ],
      summary: 'blocked edit of protected file .env',
    });
  });
  test('no reason, no tool name, several files, none', () => {
    const v = validate({ projectRoot: ROOT, files: [{ path: 'a.key' }, { path: 'b/a.key' }] }, parsePatterns('*.key'));
    expect(v.violations.map((x) => [x.snippet, x.message])).toEqual([
      ['edit a.key', 'protected by `*.key` (protected.txt line 1)'],
      ['edit b/a.key', 'protected by `*.key` (protected.txt line 1)'],
    ]);
    expect(v.summary).toBe('blocked edit of protected files a.key, b/a.key');
    expect(validate(files([{ path: 'ok.txt' }]), LIST)).toEqual({
      passed: true,
      violations: [],
      summary: 'no protected file touched',
    });
  });
});

describe('the list', () => {
  test('a bad pattern names protected.txt when no file name is given', () => {
    expect(() => parsePatterns('ok\nbad[z-a]')).toThrow('protected.txt:2: invalid pattern "bad[z-a]"');
  });
  test('protectedBy folds case only when asked', () => {
    expect(protectedBy(LIST, '.ENV', `${ROOT}/.ENV`)).toBeUndefined();
    expect(protectedBy(LIST, '.ENV', `${ROOT}/.ENV`, true)?.glob).toBe('.env');
  });
  test('a ~/ pattern looks at the path under the home directory only, not at the same tail elsewhere', () => {
    const list = parsePatterns('~/.ssh/');
    const sameLength = `/${'x'.repeat(homedir().length - 1)}/.ssh/id`;
    expect(protectedBy(list, sameLength, sameLength)).toBeUndefined();
    expect(protectedBy(list, join(homedir(), '.ssh/id'), join(homedir(), '.ssh/id'))?.glob).toBe('~/.ssh/');
  });
});
