/**
 * The parts of dangerous-commands and protected-files that the corpus exercises only as a whole: path resolution
 * (what a delete really targets), the files a shell command writes, the `[credentials]` qualifier of protected.txt,
 * and the lexer both validators carry a copy of.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteVerdict, resolvePath } from '../../validators/dangerous-commands/scripts/paths.ts';
import { parsePatterns, validate as protect } from '../../validators/protected-files/scripts/check.ts';
import { shellWrites } from '../../validators/protected-files/scripts/writes.ts';

const ctx = { project: '/work/app', home: '/home/dev' };
const at = (dir: string) => ({ dir, fromCd: false });

describe('dangerous-commands: path arguments are resolved before they are judged', () => {
  test('dots, repeated and trailing slashes, home spellings and match-all globs collapse to the real target', () => {
    const cases: Array<[string, string]> = [
      ['//etc', '/etc'],
      ['/./etc/', '/etc'],
      ['/tmp/../etc', '/etc'],
      ['/etc/..', '/'],
      ['/usr/../', '/'],
      ['~/..', '/home'],
      ['$HOME/', '/home/dev'],
      ['${HOME}/x/../', '/home/dev'],
      ['~/*', '/home/dev'],
      ['/*/', '/'],
      ['..', '/work'],
      ['./../app/.', '/work/app'],
      ['$PWD/..', '/work'],
      ['$CLAUDE_PROJECT_DIR', '/work/app'],
    ];
    for (const [word, abs] of cases)
      expect({ word, abs: resolvePath(word, at('/work/app'), ctx)?.abs }).toEqual({ word, abs });
    // An unknown variable leaves the target unknown: it is not judged (`rm -rf "$BUILD_DIR"` is routine).
    expect(resolvePath('$BUILD_DIR/x', at('/work/app'), ctx)).toBeUndefined();
  });

  test('what a recursive delete of each target destroys; generated and scratch directories are fine', () => {
    const verdict = (w: string, dir = '/work/app') => deleteVerdict(w, at(dir), ctx);
    expect(verdict('/')).toBe('the whole file system');
    expect(verdict('~/..')).toBe('a home directory');
    expect(verdict('.')).toBe('the project directory');
    expect(verdict('..')).toBe('/work, which holds the project');
    expect(verdict('/etc/nginx')).toBe('system files under /etc');
    expect(verdict('../other')).toBe('/work/other, outside the project');
    expect(verdict('~/Documents')).toBe('/home/dev/Documents, outside the project in the home directory');
    expect(verdict('/$PREFIX')).toContain('if $PREFIX is empty');
    expect(verdict('*', '/work/app/build')).toBeUndefined(); // inside a subdirectory of the project
    for (const ok of ['dist', './node_modules', '~/.cache/pip', '/tmp/x', '/work/app/coverage', '*.log', '$OUT'])
      expect({ ok, v: verdict(ok) }).toEqual({ ok, v: undefined });
  });
});

describe('protected-files: the files a shell command writes', () => {
  const writes = (cmd: string, cwd = '/work/app') => shellWrites(cmd, cwd, '/home/dev', '/work/app');
  test('redirections, tee, copy destinations, in-place edits, downloads and credential commands', () => {
    expect(writes('echo k >> ~/.ssh/authorized_keys')).toEqual(['/home/dev/.ssh/authorized_keys']);
    expect(writes('cat a | tee -a x.txt $HOME/y')).toEqual(['/work/app/x.txt', '/home/dev/y']);
    expect(writes('cp key.pub ~/.ssh/')).toEqual(['/home/dev/.ssh/key.pub']);
    expect(writes('mv a b')).toEqual(['/work/app/b']);
    expect(writes('sed -i "s/a/b/" .env')).toEqual(['/work/app/.env']);
    expect(writes('sed -i -e "s/a/b/" one two')).toEqual(['/work/app/one', '/work/app/two']);
    expect(writes('curl -o out.bin https://x')).toEqual(['/work/app/out.bin']);
    expect(writes('cd config && echo x > .env')).toEqual(['/work/app/config/.env']);
    expect(writes('sh -c "echo x > ~/.netrc"')).toEqual(['/home/dev/.netrc']);
    expect(writes('aws configure set region eu-west-1')).toEqual([
      '/home/dev/.aws/credentials',
      '/home/dev/.aws/config',
    ]);
  });
  test('reads, descriptors, devices, unknown variables, remote paths and scratch space are not writes', () => {
    for (const cmd of [
      'cat ~/.ssh/id_rsa',
      'grep x .env 2>&1',
      'ls > /dev/null',
      'echo x > "$OUT"',
      'scp .env host:/srv/.env',
      'cp .env /tmp/backup',
      'echo "rm > .env"',
    ])
      expect({ cmd, w: writes(cmd) }).toEqual({ cmd, w: [] });
  });
});

describe('protected-files: [credentials] entries', () => {
  const list = parsePatterns('.npmrc [credentials]\n~/.netrc\n');
  const dir = mkdtempSync(join(tmpdir(), 'avp-pf-cred-'));
  const event = (tool: string, toolInput: Record<string, unknown>) =>
    ({ tool, toolInput, cwd: dir, projectRoot: dir, files: [] }) as Parameters<typeof protect>[0];
  test('a write is denied when it adds a literal token or the file already holds one; env references pass', () => {
    const npmrc = join(dir, '.npmrc');
    expect(protect(event('Write', { file_path: npmrc, content: 'save-exact=true\n' }), list).passed).toBe(true);
    expect(protect(event('Write', { file_path: npmrc, content: '//r/:_authToken=${T}\n' }), list).passed).toBe(true);
    expect(protect(event('Write', { file_path: npmrc, content: '//r/:_authToken=abc123def\n' }), list).passed).toBe(
      false,
    );
    writeFileSync(npmrc, '//r/:_authToken=abc123def\n');
    expect(protect(event('Edit', { file_path: npmrc, old_string: 'a', new_string: 'b' }), list).passed).toBe(false);
    expect(list[0]!.credentials).toBe(true);
    expect(list[1]!.credentials).toBe(false);
  });
});
