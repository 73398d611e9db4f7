/**
 * Windows and macOS paths, tested here under `path.win32` (the CI workflow runs the whole suite on real Windows and
 * macOS runners): drive letters and backslashes in hook inputs, mixed separators, other drives and UNC shares,
 * case-insensitive volumes, globs that mean the same on every OS, hook commands that bash, PowerShell and cmd all
 * read, the process-tree kill without process groups, and the per-OS managed and release locations.
 */
import { describe, expect, test } from 'bun:test';
import { win32 } from 'node:path';
import { systemManagedConfigPath } from '../../src/config/managed.ts';
import { windowsKillCommand } from '../../src/os/process-tree.ts';
import type { FileChange, HookEvent } from '../../src/protocol/event.ts';
import { matchValidators } from '../../src/validator/match.ts';
import type { Validator, ValidatorSpec } from '../../src/validator/types.ts';
import { avpHookCommand, commandWord, isAvpHookCommand } from '../../src/agent-setup/hook-settings.ts';
import { relativize } from '../../src/paths.ts';
import { checkPathBounds, PathResolver, type FsProbe } from '../../src/os/real-paths.ts';
import { assetName } from '../../src/upgrade/release.ts';

const ROOT = 'C:\\Users\\me\\Proj';
const rel = (path: string, root = ROOT, nocase = true) => relativize(path, root, nocase, win32);

describe('relativize under path.win32', () => {
  test('drive letters, backslashes, forward slashes and letter case all name the same project file', () => {
    for (const path of [
      'C:\\Users\\me\\Proj\\src\\a.ts',
      'C:/Users/me/Proj/src/a.ts',
      'C:\\Users\\me\\Proj/src\\a.ts',
      'c:\\users\\ME\\proj\\src\\a.ts',
    ]) {
      expect({ path, ...rel(path) }).toEqual({ path, relPath: 'src/a.ts', inProject: true });
    }
    expect(rel('C:\\Users\\me\\Proj\\SRC\\App.TS').relPath).toBe('SRC/App.TS'); // the file keeps its own spelling
  });

  test('another drive, a sibling folder with the same prefix and a parent are outside, shown with /', () => {
    expect(rel('D:\\work\\x.ts')).toEqual({ relPath: 'D:/work/x.ts', inProject: false });
    expect(rel('C:\\Users\\me\\Proj2\\x.ts')).toEqual({ relPath: 'C:/Users/me/Proj2/x.ts', inProject: false });
    expect(rel('C:\\Users\\me\\x.ts').inProject).toBe(false);
    expect(rel(ROOT)).toEqual({ relPath: 'C:/Users/me/Proj', inProject: false });
  });

  test('a name starting with dots is inside; UNC shares work like drives', () => {
    expect(rel('C:\\Users\\me\\Proj\\..cache\\a.ts')).toEqual({ relPath: '..cache/a.ts', inProject: true });
    expect(rel('\\\\server\\share\\proj\\lib\\b.ts', '\\\\server\\share\\proj')).toEqual({
      relPath: 'lib/b.ts',
      inProject: true,
    });
    expect(rel('\\\\other\\share\\b.ts', '\\\\server\\share\\proj').inProject).toBe(false);
  });
});

describe('real paths on a Windows volume (path.win32, an NTFS-like probe)', () => {
  /** One existing folder tree; names compare case-insensitively, as NTFS does; realpath gives the stored spelling. */
  function ntfs(existing: string[]): FsProbe {
    const byKey = new Map(existing.map((p) => [p.toLowerCase(), p]));
    return {
      realpath(p) {
        const hit = byKey.get(win32.normalize(p).toLowerCase());
        if (!hit) throw new Error('ENOENT');
        return hit;
      },
      readlink: () => undefined,
      identity: (p) => (byKey.has(win32.normalize(p).toLowerCase()) ? `id:${p.toLowerCase()}` : undefined),
    };
  }

  test('a new file in an existing folder resolves through the folder’s stored spelling; the volume ignores case', () => {
    const resolver = new PathResolver(ntfs(['C:\\', 'C:\\Users', 'C:\\Users\\me', ROOT, `${ROOT}\\src`]), win32);
    const real = resolver.resolve('c:/users/ME/proj/SRC/new.ts');
    expect(real).toEqual({ path: `${ROOT}\\src\\new.ts`, caseInsensitive: true });
    expect(relativize(real.path, ROOT, real.caseInsensitive, win32)).toEqual({
      relPath: 'src/new.ts',
      inProject: true,
    });
  });

  test('a path deeper than any real one is refused also when its separators are backslashes', () => {
    expect(() => checkPathBounds(`C:\\${'a\\'.repeat(600)}x.ts`, 'tool_input.file_path')).toThrow('directories deep');
    expect(() => checkPathBounds(`C:\\${'a\\'.repeat(100)}x.ts`, 'tool_input.file_path')).not.toThrow();
    // On POSIX a backslash is part of a name, not a separator.
    expect(() => checkPathBounds(`/tmp/${'a\\'.repeat(600)}x.ts`, 'tool_input.file_path')).not.toThrow();
  });
});

describe('globs mean the same on Windows', () => {
  const ROOTP = ROOT.replaceAll('\\', '/');
  function v(files: string[]): Validator {
    const spec: ValidatorSpec = {
      name: 'v',
      description: 'd',
      severity: 'error',
      trigger: 'PostToolUse',
      match: { files },
      tags: [],
      once: false,
      timeout: 60,
    };
    return {
      id: 'v',
      name: 'v',
      source: 'project',
      form: 'file',
      path: 'v.md',
      spec,
      body: '',
      references: [],
      hash: 'h',
    };
  }
  function event(path: string): HookEvent {
    const { relPath, inProject } = relativize(path, ROOT, true, win32);
    const file: FileChange = { path, relPath, inProject, kind: 'update', caseInsensitive: true };
    return {
      agent: 'claude',
      event: 'PostToolUse',
      tool: 'Write',
      cwd: ROOT,
      projectRoot: ROOT,
      files: [file],
      raw: {},
    };
  }
  const matches = (files: string[], path: string) => matchValidators([v(files)], event(path)).length === 1;

  test('project globs match a file named with backslashes and any letter case', () => {
    expect(matches(['src/**/*.ts'], 'C:\\Users\\me\\Proj\\src\\deep\\a.ts')).toBe(true);
    expect(matches(['src/**/*.ts'], 'c:\\users\\me\\proj\\SRC\\a.TS')).toBe(true);
    expect(matches(['src/**/*.ts'], 'C:\\Users\\me\\Proj\\lib\\a.ts')).toBe(false);
    expect(matches(['*.ts'], 'D:\\elsewhere\\a.ts')).toBe(true);
    expect(matches(['src/**'], 'D:\\elsewhere\\src\\a.ts')).toBe(false);
  });

  test('an absolute glob with a drive letter matches absolute paths', () => {
    expect(matches([`${ROOTP}/src/**`], 'C:\\Users\\me\\Proj\\src\\a.ts')).toBe(true);
    expect(matches(['D:/shared/**'], 'D:\\shared\\x\\a.ts')).toBe(true);
    expect(matches(['D:/shared/**'], 'C:\\Users\\me\\Proj\\src\\a.ts')).toBe(false);
  });

  test('a backslash in a glob is an escape on every OS, never a separator that works only on Windows', () => {
    expect(matches(['src\\*.ts'], 'C:\\Users\\me\\Proj\\src\\a.ts')).toBe(false);
  });
});

describe('hook commands that Git Bash, PowerShell and cmd all run', () => {
  test('this machine’s path: forward slashes, unquoted; quoted only when it has a space', () => {
    expect(avpHookCommand('claude', 'win32', 'C:\\Users\\me\\.avp\\bin\\avp.exe', '/$bunfs/root/avp')).toBe(
      'C:/Users/me/.avp/bin/avp.exe hook --agent claude',
    );
    expect(avpHookCommand('claude', 'win32', 'C:\\Program Files\\avp\\avp.exe', '/$bunfs/root/avp')).toBe(
      '"C:/Program Files/avp/avp.exe" hook --agent claude',
    );
    expect(commandWord("C:\\Users\\Ann O'Neil\\avp.exe", 'win32')).toBe('"C:/Users/Ann O\'Neil/avp.exe"');
    // POSIX keeps sh quoting.
    expect(avpHookCommand('claude', 'linux', '/home/a b/avp', '/$bunfs/root/avp')).toBe(
      "'/home/a b/avp' hook --agent claude",
    );
  });

  test('avp recognises its own Windows entries (for init, deinit and the accepted state)', () => {
    for (const c of [
      'C:/Users/me/.avp/bin/avp.exe hook --agent claude',
      '"C:/Program Files/avp/avp.exe" hook --agent claude',
      'C:\\Users\\me\\.avp\\bin\\avp.exe hook',
      'avp hook --agent claude',
    ])
      expect({ c, mine: isAvpHookCommand(c) }).toEqual({ c, mine: true });
    expect(isAvpHookCommand('C:/tools/notavp.exe hook')).toBe(false);
  });
});

describe('per-OS locations and process trees', () => {
  test('the managed config lives where each OS keeps machine-wide settings', () => {
    expect(systemManagedConfigPath('win32', { ProgramData: 'D:\\PD' })).toBe('D:\\PD\\avp\\managed.json');
    expect(systemManagedConfigPath('win32', {})).toBe('C:\\ProgramData\\avp\\managed.json');
    expect(systemManagedConfigPath('darwin', {})).toBe('/Library/Application Support/avp/managed.json');
    expect(systemManagedConfigPath('linux', {})).toBe('/etc/avp/managed.json');
  });

  test('release assets per OS, and the Windows tree kill (no process groups there)', () => {
    expect(assetName('win32', 'x64')).toBe('avp-windows-x64.exe');
    expect(assetName('darwin', 'arm64')).toBe('avp-darwin-arm64');
    expect(() => assetName('freebsd', 'x64')).toThrow('no avp release for freebsd-x64');
    expect(windowsKillCommand(4242)).toEqual(['taskkill', ['/PID', '4242', '/T', '/F']]);
  });
});
