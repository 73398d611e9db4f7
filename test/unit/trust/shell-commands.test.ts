/**
 * What each file-changing command writes, read from its arguments alone (shell-commands.ts): the exact targets, with
 * a source's name joined to a folder target, whether the change reaches a tree, and which source's contents land
 * there. A target missed here is a write the guard never judges; a source taken for a target is a false alarm on a
 * copy out of a control file.
 */
import { describe, expect, test } from 'bun:test';
import { userInfo } from 'node:os';
import { commandWrites, gitWrites, type Arg, type Write } from '../../../src/trust/shell-commands.ts';

const word = (text: string): Arg => ({ text, exact: true, literal: text });
const me = userInfo();

/** One write as text: `dest`, `dest ⟵ source` (joined), ` (tree)`, ` from src` (the contents that land). */
function shown(w: Write): string {
  const join = w.join ? ` ⟵ ${w.join.text}` : '';
  return `${w.arg.text}${join}${w.tree ? ' (tree)' : ''}${w.from ? ` from ${w.from.text}` : ''}`;
}

/** The writes of `line` (split at spaces); `dirs` are the arguments that name existing folders. */
function writes(line: string, dirs: string[] = []): string[] | undefined {
  const [name, ...rest] = line.split(' ');
  return commandWrites(name!, rest.map(word), { isDir: (a) => dirs.includes(a.text) })?.map(shown);
}

/** A block of `[command line, folders among its arguments, the writes expected]` rows, one test each. */
function table(title: string, cases: [string, string[], string[]][]) {
  describe(title, () => {
    for (const [line, dirs, expected] of cases)
      test(`${line}${dirs.length ? ` (folders: ${dirs.join(', ')})` : ''}`, () => {
        expect(writes(line, dirs)).toEqual(expected);
      });
  });
}

table('cp, mv, install, ln: sources into a destination', [
  ['cp a b', [], ['b']],
  ['cp a b', ['b'], ['b ⟵ a']],
  ['cp a b/', [], ['b/ ⟵ a']],
  ['cp a b c', [], ['c ⟵ a', 'c ⟵ b']],
  ['cp -t d a b', [], ['d ⟵ a', 'd ⟵ b']],
  ['cp a -t d', [], ['d ⟵ a']],
  ['cp --target-directory=d a', [], ['d ⟵ a']],
  ['cp -T a b', ['b'], ['b']],
  ['cp --no-target-directory a b', ['b'], ['b']],
  ['cp -S .orig a b', [], ['b']],
  ['cp -- -x b', ['b'], ['b ⟵ -x']],
  ['cp - b', ['b'], ['b ⟵ -']],
  ['cp a', [], []],
  ['cp', [], []],
  // A recursive copy adds the source's contents: judged by what the source holds.
  ['cp -r src dst', ['src'], ['dst (tree) from src']],
  ['cp -r src dst', ['src', 'dst'], ['dst ⟵ src (tree) from src']],
  ['cp -R src dst', ['src'], ['dst (tree) from src']],
  ['cp --recursive src dst', ['src'], ['dst (tree) from src']],
  ['cp -a src dst', ['src'], ['dst (tree) from src']],
  ['cp --archive src dst', ['src'], ['dst (tree) from src']],
  ['cp -pr src dst', ['src'], ['dst (tree) from src']],
  ['cp -r file dst', [], ['dst (tree)']],
  ['cp -r a b dst', ['a', 'b'], ['dst ⟵ a (tree) from a', 'dst ⟵ b (tree) from b']],
  ['cp src dst', ['src'], ['dst']],
  // A move changes its sources too, whole trees, and lands them whole: no contents to judge by.
  ['mv a b', [], ['a (tree)', 'b (tree)']],
  ['mv a d', ['a', 'd'], ['a (tree)', 'd ⟵ a (tree)']],
  ['mv -t d a b', [], ['a (tree)', 'b (tree)', 'd ⟵ a (tree)', 'd ⟵ b (tree)']],
  ['mv a', [], []],
  ['install -m 644 a b', [], ['b']],
  ['install -o me -g me a d', ['d'], ['d ⟵ a']],
  ['install -C a b', [], ['b']],
  // `install -d` makes each operand a folder, as mkdir does.
  ['install -d a b', [], ['a', 'b']],
  ['install --directory a', [], ['a']],
  ['install -m 700 -d a', [], ['a']],
  // A link made to a control path is a handle for writing it later: its target counts as written.
  ['ln -s target link', [], ['link (tree)', 'target']],
  ['ln -s target', [], ['. ⟵ target (tree)', 'target']],
  ['ln -s a b d/', [], ['d/ ⟵ a (tree)', 'd/ ⟵ b (tree)', 'a', 'b']],
  ['ln -sf target link', ['link'], ['link ⟵ target (tree)', 'target']],
  ['ln -t d a', [], ['d ⟵ a (tree)', '. ⟵ a (tree)', 'a']],
]);

table('rsync: local destinations only; contents judged unless --delete', [
  ['rsync -a src/ dst', ['src/'], ['dst (tree) from src/']],
  ['rsync -a src dst', ['src'], ['dst ⟵ src (tree) from src']],
  ['rsync -a a b dst', [], ['dst ⟵ a (tree)', 'dst ⟵ b (tree)']],
  ['rsync -a --delete src/ dst', ['src/'], ['dst (tree)']],
  ['rsync -a --delete-after src/ dst', ['src/'], ['dst (tree)']],
  ['rsync -e ssh a b', [], ['b ⟵ a (tree)']],
  ['rsync --remove-source-files a b', [], ['b ⟵ a (tree)', 'a (tree)']],
  ['rsync -a host:src dst', [], []],
  ['rsync -a src host:dst', [], []],
  ['rsync a', [], []],
]);

table('commands that change the files they are given', [
  ['rm -rf a b', [], ['a (tree)', 'b (tree)']],
  ['rm -- -f', [], ['-f (tree)']],
  ['shred -u a', [], ['a (tree)']],
  ['unlink a', [], ['a (tree)']],
  ['rmdir a', [], ['a (tree)']],
  ['srm a', [], ['a (tree)']],
  ['trash a', [], ['a (tree)']],
  ['trash-put a', [], ['a (tree)']],
  ['touch a', [], ['a']],
  ['tee -a a b', [], ['a', 'b']],
  ['sponge a', [], ['a']],
  ['truncate -s 0 a', [], ['a']],
  ['touch -d yesterday a', [], ['a']],
  ['touch -r ref a', [], ['a']],
  ['touch -t 202601010000 a', [], ['a']],
  ['dd if=a of=b bs=1', [], ['b']],
  ['dd if=a', [], []],
  ['patch -p1 a', [], ['a']],
  ['patch -i fix.diff a', [], ['a']],
  ['ed a', [], ['a']],
  ['ex a', [], ['a']],
  ['vi a', [], ['a']],
  ['vim -c wq a', [], ['a']],
  ['nvim a', [], ['a']],
]);

table('modes and owners: only a change that can lock avp out counts', [
  ['chmod +x a', [], []],
  ['chmod a+r,u+x a', [], []],
  ['chmod 755 a', [], []],
  ['chmod 0700 a', [], []],
  ['chmod go-w a', [], []],
  ['chmod o= a', [], []],
  ['chmod g+w,o-r a', [], []],
  ['chmod 644 a', [], ['644', 'a']],
  ['chmod u-w a', [], ['u-w', 'a']],
  ['chmod a-w a', [], ['a-w', 'a']],
  ['chmod -R 600 d', [], ['600 (tree)', 'd (tree)']],
  ['chmod --recursive 600 d', [], ['600 (tree)', 'd (tree)']],
  ['chgrp staff a', [], []],
  ['chown $USER a', [], []],
  ['chown ${USER}:staff a', [], []],
  [`chown ${me.username} a`, [], []],
  [`chown ${me.uid}.${me.gid} a`, [], []],
  ['chown nobody a', [], ['nobody', 'a']],
  ['chown -R nobody d', [], ['nobody (tree)', 'd (tree)']],
  ['chattr +i a', [], ['+i', 'a']],
  ['chattr -i a', [], ['a']],
  // Only chmod's modes and chown's own user pass: the same words given to another command are operands.
  ['chattr +s a', [], ['+s', 'a']],
  ['chown go= a', [], ['go=', 'a']],
  ['chown', [], []],
  ['setfacl -m u:nobody:r a', [], ['a']],
  ['setfacl -x u:nobody a', [], ['a']],
]);

table('editors in place, downloads, sort -o: only when they write', [
  ['sed -i s/a/b/ f g', [], ['f', 'g']],
  ['sed -i.bak s/a/b/ f', [], ['f']],
  ['sed -ni s/a/b/p f', [], ['f']],
  ['sed --in-place s/a/b/ f', [], ['f']],
  ['sed --in-place=.bak s/a/b/ f', [], ['f']],
  ['sed -e s/a/b/ -i f g', [], ['f', 'g']],
  ['sed -i -f script.sed f', [], ['f']],
  ['sed -i --expression=s/a/b/ f', [], ['f']],
  ['sed s/a/b/ f', [], []],
  ['gsed -i s/a/b/ f', [], ['f']],
  ['perl -pi -e s/a/b/ f', [], ['f']],
  ['perl -i -E say f', [], ['f']],
  ['perl -i script.pl f', [], ['f']],
  ['perl -pie s/a/b/ f', [], ['s/a/b/', 'f']],
  ['perl -i -pe s/a/b/ f', [], ['s/a/b/', 'f']],
  ['perl -e print f', [], []],
  ['ruby -i -e puts f', [], ['f']],
  ['yq -i .a=1 f', [], ['f']],
  ['yq --inplace .a=1 f', [], ['f']],
  ['yq .a f', [], []],
  ['yq -P .a f', [], []],
  ['curl -o f https://x', [], ['f']],
  ['curl --output f https://x', [], ['f']],
  ['curl --output=f https://x', [], ['f']],
  ['curl -X POST -H h:v -d x -u a:b https://x', [], []],
  ['wget -O f https://x', [], ['f']],
  ['wget --output-document f https://x', [], ['f']],
  ['wget --output-document=f https://x', [], ['f']],
  ['sort -o f g', [], ['f']],
  ['sort g', [], []],
]);

test('commands that change no file they are given are not listed (the guard judges them itself)', () => {
  for (const name of ['make', 'npm', 'mkdir', 'cat'])
    expect(commandWrites(name, [word('a')], { isDir: () => false })).toBe(undefined);
});

describe('git: the paths a subcommand changes, in the folder -C names', () => {
  const git = (line: string) => {
    const g = gitWrites(line.split(' ').filter(Boolean).map(word));
    return { cwd: g.cwd?.text, writes: g.writes.map(shown), hides: g.hides };
  };
  const cases: [string, { cwd?: string; writes: string[]; hides?: string }][] = [
    ['checkout -- f', { writes: ['f'] }],
    ['checkout -b topic', { writes: [] }],
    ['restore --source HEAD f', { writes: ['f'] }],
    ['restore -s HEAD~1 f', { writes: ['f'] }],
    ['rm -r d', { writes: ['d (tree)'] }],
    ['mv a b', { writes: ['a (tree)', 'b (tree)'] }],
    ['-C sub checkout f', { cwd: 'sub', writes: ['f'] }],
    ['-c core.x=y --git-dir .g --work-tree w checkout f', { writes: ['f'] }],
    ['--no-pager checkout f', { writes: ['f'] }],
    ['clean -fdx', { writes: ['. (tree)'] }],
    ['clean -fX d', { writes: ['d (tree)'] }],
    ['clean -e keep -fx', { writes: ['. (tree)'] }],
    ['clean -fd', { writes: [] }],
    ['clean -ndx', { writes: [] }],
    ['clean --dry-run -x', { writes: [] }],
    ['update-index --assume-unchanged f', { writes: [], hides: '--assume-unchanged' }],
    ['update-index --skip-worktree f', { writes: [], hides: '--skip-worktree' }],
    ['update-index --refresh', { writes: [] }],
    ['status', { writes: [] }],
    ['', { writes: [] }],
  ];
  for (const [line, expected] of cases)
    test(`git ${line}`, () => {
      expect(git(line)).toEqual({ cwd: undefined, hides: undefined, ...expected });
    });
});
