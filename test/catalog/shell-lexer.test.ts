/**
 * The shell lexer dangerous-commands and protected-files carry (scripts/shell.ts), input by input against what a
 * POSIX shell (bash) makes of the line: words with quotes removed, pipelines, redirections, here-documents and
 * here-strings, substitutions — and `unwrap`, which finds the command behind wrappers, keywords and assignments.
 * The rules are only as good as this split: `rm -rf /` in a quoted argument is not a command, `$(rm -rf /)` is.
 */
import { describe, expect, test } from 'bun:test';
import { parseShell, unwrap } from '../../validators/dangerous-commands/scripts/shell.ts';

type Cmd = { words: string[]; redirects?: Array<{ op: string; target: string }>; stdin?: string };
/** Pipelines written short: a command without redirects lists only its words. */
const parsed = (pipelines: Cmd[][], substitutions: string[] = []) => ({
  pipelines: pipelines.map((p) => p.map((c) => ({ redirects: [], ...c }))),
  substitutions,
});
const words = (...w: string[]): Cmd => ({ words: w });

describe('words and quotes', () => {
  const cases: Array<[string, Cmd[][]]> = [
    ['a\tb  c', [[words('a', 'b', 'c')]]],
    ['echo a\\ b c\\\nd', [[words('echo', 'a b', 'cd')]]],
    ['echo x\\', [[words('echo', 'x')]]],
    ["echo 'it''s' \"x\\\"y\\\\z\\$w\\q\" e", [[words('echo', 'its', 'x"y\\z$w\\q', 'e')]]],
    ['echo \'a "b" \\c\' d', [[words('echo', 'a "b" \\c', 'd')]]],
    ["echo 'unterminated; rm -rf /", [[words('echo', 'unterminated; rm -rf /')]]],
    ['echo "unterminated; rm -rf /', [[words('echo', 'unterminated; rm -rf /')]]],
    ['echo "a\\', [[words('echo', 'a\\')]]],
    ['echo ""x \'\' y', [[words('echo', 'x', '', 'y')]]],
    ['echo a#b # comment ; rm -rf /\nls', [[words('echo', 'a#b')], [words('ls')]]],
    ['# only a comment', []],
  ];
  test.each(cases)('%j', (src, pipelines) => {
    expect(parseShell(src)).toEqual(parsed(pipelines));
  });
});

describe('lists and pipelines', () => {
  const cases: Array<[string, Cmd[][]]> = [
    [
      'a && b || c ; d & e (f) g',
      [[words('a')], [words('b')], [words('c')], [words('d')], [words('e')], [words('f')], [words('g')]],
    ],
    ['a&&b||c;d', [[words('a')], [words('b')], [words('c')], [words('d')]]],
    ['a |& b | c', [[words('a'), words('b'), words('c')]]],
    ['a|b', [[words('a'), words('b')]]],
    ['a\nb\n\nc', [[words('a')], [words('b')], [words('c')]]],
    ['( cd x ) ; ;', [[words('cd', 'x')]]],
    ['&>log cmd', [[{ words: ['cmd'], redirects: [{ op: '&>', target: 'log' }] }]]],
  ];
  test.each(cases)('%j', (src, pipelines) => {
    expect(parseShell(src)).toEqual(parsed(pipelines));
  });
});

describe('redirections', () => {
  test('each operator with its target; a descriptor number belongs to the operator; dups name no file', () => {
    expect(parseShell('cmd 2>err 1>>out 2>&1 >&- <in <>rw >|clob &>all &>>both 3<&0 12>f a1>g')).toEqual(
      parsed([
        [
          {
            words: ['cmd', 'a1'],
            redirects: [
              { op: '>', target: 'err' },
              { op: '>>', target: 'out' },
              { op: '<', target: 'in' },
              { op: '<>', target: 'rw' },
              { op: '>|', target: 'clob' },
              { op: '&>', target: 'all' },
              { op: '&>>', target: 'both' },
              { op: '>', target: 'f' },
              { op: '>', target: 'g' },
            ],
          },
        ],
      ]),
    );
  });
  test('a redirection alone is a command; before the words too', () => {
    expect(parseShell('>out')).toEqual(parsed([[{ words: [], redirects: [{ op: '>', target: 'out' }] }]]));
    expect(parseShell('2>x echo')).toEqual(parsed([[{ words: ['echo'], redirects: [{ op: '>', target: 'x' }] }]]));
    expect(parseShell('echo >&2 hi')).toEqual(parsed([[words('echo', 'hi')]]));
    expect(parseShell('echo x >2.txt')).toEqual(
      parsed([[{ words: ['echo', 'x'], redirects: [{ op: '>', target: '2.txt' }] }]]),
    );
    expect(parseShell('echo >& f')).toEqual(parsed([[{ words: ['echo'], redirects: [{ op: '>&', target: 'f' }] }]]));
  });
});

describe('here-documents and here-strings', () => {
  const cases: Array<[string, Cmd[][]]> = [
    ['cat <<< "here string" <<<more', [[{ words: ['cat'], stdin: 'here stringmore' }]]],
    ['cat <<EOF\nl1\n  EOF\nEOF\nnext', [[{ words: ['cat'], stdin: 'l1\n  EOF' }], [words('next')]]],
    ['cat <<-END\n\tl1\n\tEND\nafter', [[{ words: ['cat'], stdin: '\tl1' }], [words('after')]]],
    ["cat <<'Q' | sh\nrm -rf /\nQ\nls", [[{ words: ['cat'], stdin: 'rm -rf /' }, words('sh')], [words('ls')]]],
    ['cat <<A <<B\na1\nA\nb1\nB\nz', [[{ words: ['cat'], stdin: 'a1b1' }], [words('z')]]],
    ['<<E\nbody\nE', [[{ words: [], stdin: 'body' }]]],
    ['<<<text', [[{ words: [], stdin: 'text' }]]],
    ['cat <<E\nx\n\tE\nE\nls', [[{ words: ['cat'], stdin: 'x\n\tE' }], [words('ls')]]],
    ['cat <<E\nno end', [[{ words: ['cat'], stdin: 'no end' }]]],
    ['cat <<E\nx\nE\n', [[{ words: ['cat'], stdin: 'x' }]]],
  ];
  test.each(cases)('%j', (src, pipelines) => {
    expect(parseShell(src)).toEqual(parsed(pipelines));
  });
});

describe('substitutions', () => {
  const cases: Array<[string, Cmd[][], string[]]> = [
    ['echo "in $(whoami) out"', [[words('echo', 'in $(whoami) out')]], ['whoami']],
    ['echo "$(echo ")" ; rm a)" after', [[words('echo', '$(echo ")" ; rm a)', 'after')]], ['echo ")" ; rm a']],
    ['x=$(( 1 + $(id -u) )) y', [[words('x=$(( 1 + $(id -u) ))', 'y')]], ['id -u']],
    ['echo "$(( 2 * $(nproc) ))"', [[words('echo', '$(( 2 * $(nproc) ))')]], ['nproc']],
    ['cat <(ls a) >(wc -l) x', [[words('cat', '<(ls a)', '>(wc -l)', 'x')]], ['ls a', 'wc -l']],
    ['echo `date` `open', [[words('echo', '`date`', '`open')]], ['date', 'open']],
    ['$(a (b) c) d', [[words('$(a (b) c)', 'd')]], ['a (b) c']],
    ["echo $(printf '%s' ')' ) z", [[words('echo', "$(printf '%s' ')' )", 'z')]], ["printf '%s' ')' "]],
    ['echo $(echo "\\"" ) z', [[words('echo', '$(echo "\\"" )', 'z')]], ['echo "\\"" ']],
    ['echo $(echo ")") z', [[words('echo', '$(echo ")")', 'z')]], ['echo ")"']],
    ['echo $(a \\) b) z', [[words('echo', '$(a \\) b)', 'z')]], ['a \\) b']],
    ["echo $(printf ')) ' ) z", [[words('echo', "$(printf ')) ' )", 'z')]], ["printf ')) ' "]],
    ['a $(b $(c) d) e', [[words('a', '$(b $(c) d)', 'e')]], ['b $(c) d']],
    ['echo $((cd /; rm x) && ls)', [[words('echo', '$((cd /; rm x) && ls)')]], ['(cd /; rm x) && ls']],
    ['diff <((ls)) x', [[words('diff', '<((ls))', 'x')]], ['(ls)']],
    ['echo "a"$(id) z', [[words('echo', 'a$(id)', 'z')]], ['id']],
  ];
  test.each(cases)('%j', (src, pipelines, substitutions) => {
    expect(parseShell(src)).toEqual(parsed(pipelines, substitutions));
  });
  test('an unterminated $( keeps what follows it out of the word list (the shell would refuse the line)', () => {
    expect(parseShell('echo $(rm x').pipelines).toEqual(parsed([[words('echo', '$(rm x')]]).pipelines);
    expect(parseShell("echo $(echo 'x").pipelines).toEqual(parsed([[words('echo', "$(echo 'x")]]).pipelines);
    expect(parseShell('echo $(echo "x').pipelines).toEqual(parsed([[words('echo', '$(echo "x')]]).pipelines);
  });
});

describe('unwrap', () => {
  const cases: Array<[string[], string[]]> = [
    [
      ['FOO=1', 'sudo', '-u', 'root', '-E', 'rm', 'x'],
      ['rm', 'x'],
    ],
    [['env', '-u', 'A', 'B=1', 'rm'], ['rm']],
    [
      ['env', '-C', '/tmp', 'rm', '-rf', 'x'],
      ['rm', '-rf', 'x'],
    ],
    [['timeout', '-s', 'KILL', '5', 'rm'], ['rm']],
    [['timeout', '5s', 'rm'], ['rm']],
    [['timeout', 'rm'], ['rm']],
    [['if', '!', 'rm'], ['rm']],
    [['{', 'rm'], ['rm']],
    [['then', 'rm'], ['rm']],
    [['else', 'rm'], ['rm']],
    [['elif', 'rm'], ['rm']],
    [['do', 'rm'], ['rm']],
    [['while', 'rm'], ['rm']],
    [['until', 'rm'], ['rm']],
    [['nice', '-n', '5', 'ionice', '-c', '3', 'rm'], ['rm']],
    [['/usr/bin/sudo', 'rm'], ['rm']],
    [['doas', '-u', 'x', 'rm'], ['rm']],
    [['watch', '-n', '1', 'rm'], ['rm']],
    [['stdbuf', '-oL', 'rm'], ['rm']],
    [['sudo', '--user', 'x', 'rm'], ['rm']],
    [['sudo', '-E', 'rm'], ['rm']],
    [['nohup', 'time', 'command', 'builtin', 'exec', 'busybox', 'chronic', 'unbuffer', 'rm'], ['rm']],
    [
      ['echo', 'sudo', 'rm'],
      ['echo', 'sudo', 'rm'],
    ],
    [
      ['nohup', '2to3', 'x.py'],
      ['2to3', 'x.py'],
    ],
    [['A=1'], []],
    [[], []],
    [
      ['ls', 'A=1'],
      ['ls', 'A=1'],
    ],
    [
      ['1A=x', 'rm'],
      ['1A=x', 'rm'],
    ],
    [Array.from({ length: 12 }, () => 'sudo').concat('rm'), ['sudo', 'sudo', 'rm']],
  ];
  test.each(cases)('%j', (input, out) => {
    expect(unwrap(input)).toEqual(out);
  });
});
