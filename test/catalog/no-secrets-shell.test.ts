/**
 * What no-secrets reads from a shell command before it runs (validators/no-secrets/scripts/shell.ts): the statements
 * and words of the command (quotes, escapes, separators), where it writes, the text it prints into a file, and which
 * statements are a `git commit`.
 */
import { describe, expect, test } from 'bun:test';
import { homedir } from 'node:os';
import { commandWrites, gitCommit } from '../../validators/no-secrets/scripts/shell.ts';

/** What `command` writes, file by file, run in /p (the project root) or `cwd`. */
const writes = (command: string, cwd = '/p') =>
  commandWrites(command, '/p', cwd).map((w) => [w.file, w.added.map((a) => a.text).join('\n')]);

describe('statements', () => {
  test('split on `;`, `&&`, `||` and newlines, with or without spaces; a pipe stays inside', () => {
    expect(writes('echo a > x.txt;echo b > y.txt')).toEqual([
      ['x.txt', 'a'],
      ['y.txt', 'b'],
    ]);
    expect(writes('echo a > x.txt &&echo b > y.txt || echo c > z.txt\necho d > w.txt')).toEqual([
      ['x.txt', 'a'],
      ['y.txt', 'b'],
      ['z.txt', 'c'],
      ['w.txt', 'd'],
    ]);
    expect(writes('echo K=v | tee out.env')).toEqual([['out.env', 'K=v']]);
  });
  test('separators inside quotes or escaped do not split', () => {
    expect(writes(`echo 'K=a;b' > x.env; echo "L=c&&d" > y.env; echo M=e\\;f > z.env`)).toEqual([
      ['x.env', 'K=a;b'],
      ['y.env', 'L=c&&d'],
      ['z.env', 'M=e;f'],
    ]);
    expect(writes(`echo "K=a\\"; b" > x.env`)).toEqual([['x.env', 'K=a"; b']]);
    expect(writes(`echo 'K=a\\' > x.env; echo b > y.txt`)).toEqual([
      ['x.env', 'K=a\\'],
      ['y.txt', 'b'],
    ]);
  });
  test('the last statement is read to its end; leading blanks are not part of what it writes', () => {
    expect(writes('cat a > b.txt;   cat c > d.txt')).toEqual([
      ['b.txt', 'cat a > b.txt'],
      ['d.txt', 'cat c > d.txt'],
    ]);
    expect(writes("printf 'x' > out.txt \\")).toEqual([['out.txt', 'x']]);
    expect(writes('echo > a.txt "K=1\\')).toEqual([['a.txt', 'K=1\\']]);
  });
});

describe('words', () => {
  test('quotes are removed; inside double quotes only \\" \\\\ \\$ \\` are escapes; single quotes keep all', () => {
    expect(writes(`echo "K=a\\"b" > f.env`)).toEqual([['f.env', 'K=a"b']]);
    expect(writes(`echo "K=a\\tb" > f.env`)).toEqual([['f.env', 'K=a\\tb']]);
    expect(writes(`echo 'K=a\\"b' > f.env`)).toEqual([['f.env', 'K=a\\"b']]);
    expect(writes('echo K=a\\ b > f.env')).toEqual([['f.env', 'K=a b']]);
  });
  test('an empty quoted word is a word; runs of blanks are one separator', () => {
    expect(writes('echo "" "K=v" > f.env')).toEqual([['f.env', ' K=v']]);
    expect(writes('echo > f.env "K=v" ""')).toEqual([['f.env', 'K=v ']]);
    expect(writes('echo K=v   L=w > f.env')).toEqual([['f.env', 'K=v L=w']]);
  });
  test('a redirect first, and one glued to the text: all of the text is kept', () => {
    expect(writes('> out.env echo K=v')).toEqual([['out.env', 'K=v']]);
    expect(writes('echo ab>f.txt cd')).toEqual([['f.txt', 'ab cd']]);
  });
});

describe('what is printed', () => {
  test('echo drops its flags; printf turns \\n into line breaks; other commands are kept whole', () => {
    expect(writes("echo -n -e 'K=v' > f.env")).toEqual([['f.env', 'K=v']]);
    expect(writes("printf 'K=%s\\nL=%s\\n' a b > f.env")).toEqual([['f.env', 'K=%s\nL=%s\n a b']]);
    expect(writes('cat notes.txt | tee copy.txt')).toEqual([['copy.txt', 'cat notes.txt | tee copy.txt']]);
    expect(writes('echo A=1 | echo B=2 > f.env')).toEqual([['f.env', 'A=1\nB=2']]);
  });
  test('targets: quoted names, tee, sed -i', () => {
    expect(writes('echo a > "out file.txt"')).toEqual([['out file.txt', 'a']]);
    expect(writes("echo a | tee -a 'notes.txt'")).toEqual([['notes.txt', 'a']]);
    expect(writes("sed -i 's/a/b/' config.env").map(([f]) => f)).toEqual(['config.env']);
  });
});

describe('where it writes', () => {
  test('relative to the working directory, inside the project as a project path, outside as an absolute one', () => {
    expect(writes('echo a > a.txt', '/p/sub')).toEqual([['sub/a.txt', 'a']]);
    expect(writes('echo a > /etc/app.conf')).toEqual([['/etc/app.conf', 'a']]);
    expect(writes('echo a > .')).toEqual([['/p', 'a']]);
    expect(writes('echo a > ~/notes.txt')).toEqual([[`${homedir()}/notes.txt`, 'a']]);
  });
  test('without HOME, `~/` is kept as written', () => {
    const home = process.env.HOME;
    delete process.env.HOME;
    try {
      expect(writes('echo a > ~/notes.txt')).toEqual([['~/notes.txt', 'a']]);
    } finally {
      process.env.HOME = home;
    }
  });
});

describe('heredocs', () => {
  test('the body goes to the target of the line that opens it, line by line', () => {
    expect(writes('cat <<EOF > f.env\nK=1\nL=2\nEOF\necho done')).toEqual([['f.env', 'K=1\nL=2']]);
  });
  test('<<- ends at a tab-indented terminator; an unterminated body runs to the end', () => {
    expect(writes('cat <<-EOF > f.env\n\tK=1\n\tEOF\necho x > g.txt')).toEqual([
      ['f.env', '\tK=1'],
      ['g.txt', 'x'],
    ]);
    expect(writes('cat <<EOF > f.env\nK=1')).toEqual([['f.env', 'K=1']]);
  });
  test('a heredoc fed to a program, not a file, is still judged', () => {
    expect(writes("python3 - <<'PY'\nprint(1)\nPY")).toEqual([['(heredoc)', 'print(1)']]);
  });
});

describe('git commit', () => {
  test('found behind global options; -C takes a value, other options do not', () => {
    expect(gitCommit('git --no-pager commit -m x')).toEqual({ all: false, adds: false });
    expect(gitCommit('git -C -app commit -m x')).toEqual({ all: false, adds: false });
    expect(gitCommit('commit -a -m wip')).toBeUndefined();
  });
  test('git stage counts as an add; a message glued to -m is not a flag cluster', () => {
    expect(gitCommit('git stage . && git commit -m x')).toEqual({ all: true, adds: true });
    expect(gitCommit('git commit -m"add a file"')).toEqual({ all: false, adds: false });
  });
});
