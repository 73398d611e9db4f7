/**
 * no-debug-leftovers line by line, beyond the corpus: what each language counts as a string or a comment (a `'` is a
 * quote in Python but a lifetime in Rust, `#` a comment in Python/Ruby/PHP but a private field in JS, `//` floor
 * division in Python and an empty regex in Ruby), block comments and docstrings across lines, the markers, and the
 * verdict's exact words (message, suggestion per language, summary).
 */
import { describe, expect, test } from 'bun:test';
import { validate } from '../../validators/no-debug-leftovers/scripts/check.ts';
import { fileEvent } from './corpus.ts';

/** The rules a Write of `content` to `file` is flagged under ([] when it passes). */
const rules = async (file: string, content: string) =>
  validate(await fileEvent(file, content)).violations.map((v) => v.rule);

describe('strings and comments, per language', () => {
  const cases: Array<[string, string, string[]]> = [
    // JS: all three quotes, escapes inside them, line and block comments.
    ['src/a.ts', "const a = 'x'; console.log(a);\n", ['console-log']],
    ['src/a.ts', 'const a = "x"; console.log(a);\n', ['console-log']],
    ['src/a.ts', 'const a = `x`; console.log(a);\n', ['console-log']],
    ['src/a.ts', 'const s = `console.log(x)`;\n', []],
    ['src/a.ts', "const s = 'console.log(x)';\n", []],
    ['src/a.ts', 'const s = "a\\"console.log(x)";\n', []],
    ['src/a.ts', "const s = 'a\\'console.log(x)';\n", []],
    ['src/a.ts', 'class A { #n = 1; m() { console.log(this.#n); } }\n', ['console-log']],
    ['src/a.ts', 'x(); // console.log(x)\n', []],
    ['src/a.ts', 'x(); /* console.log(x) */ y();\n', []],
    ['src/a.ts', 'x(); /* note */ console.log(x);\n', ['console-log']],
    ['src/a.ts', 'x(); /* console.log(x)\n', []],
    ['src/a.ts', 'return/**/console.log(x);\n', ['console-log']],
    ['src/a.ts', 'return/* why */console.log(x);\n', ['console-log']],
    ['src/a.ts', 'x(); /* a *//* b */ console.log(x);\n', ['console-log']],
    // A comment after or inside the statement does not hide it.
    ['src/a.ts', 'debugger // pause here\n', ['debugger']],
    ['src/a.ts', 'if (x) y(); else/* c */debugger;\n', ['debugger']],
    ['src/a.ts', 'console.log/**/(x);\n', ['console-log']],
    ['lib/r.rb', 'byebug # why\n', ['debugger']],
    ['src/a.ts', 'const url = "http://x"; console.log(url);\n', ['console-log']],
    // Python: ' and " are quotes, # a comment, // floor division.
    ['app/m.py', "x = 'breakpoint()'\n", []],
    ['app/m.py', 'x = "breakpoint()"\n', []],
    ['app/m.py', 'x = 1  # breakpoint()\n', []],
    ['app/m.py', 'n = total // 2; breakpoint()\n', ['breakpoint']],
    ['app/m.py', "s = 'a'; breakpoint()\n", ['breakpoint']],
    // Rust: only " is a quote (a ' starts a lifetime or a char), // and /* */ comments.
    ['src/l.rs', "fn f(x: &'static str) { dbg!(x); }\n", ['dbg']],
    ['src/l.rs', 'let s = "dbg!(x)";\n', []],
    ['src/l.rs', 'let y = 1; // dbg!(x)\n', []],
    // Ruby: # comments; // is an empty regex, not a comment.
    ['lib/r.rb', 'chars = s.split(//); binding.pry\n', ['debugger']],
    ['lib/r.rb', 'x = s.gsub(/\\/*/, ""); binding.pry\n', ['debugger']],
    ['lib/r.rb', 'x = 1 # binding.pry\n', []],
    ['lib/r.rb', "require 'pry'\n", ['debugger']],
    // PHP: #, // and /* */ comments.
    ['src/P.php', '<?php\n$x = 1; # var_dump($x);\n', []],
    ['src/P.php', '<?php\n$x = 1; // var_dump($x);\n', []],
    ['src/P.php', '<?php\n$x = 1; /* var_dump($x); */\n', []],
    ['src/P.php', "<?php\n\$s = 'var_dump(\$x)';\n", []],
    ['src/P.php', '<?php\nvar_export($x);\n', ['var-dump']],
    ['src/P.php', '<?php\n$y = var_export($x, true);\n', []],
    ['src/P.PHP', '<?php\nvar_dump($x);\n', ['var-dump']],
    ['src/p.phpx', '<?php\nvar_dump($x);\n', []],
  ];
  test.each(cases)('%s: %j', async (file, content, expected) => {
    expect(await rules(file, content)).toEqual(expected);
  });
});

describe('block comments, docstrings and =begin blocks across lines', () => {
  const cases: Array<[string, string, string[]]> = [
    ['src/a.ts', '/*\nconsole.log(x);\n*/\nconsole.log(y);\n', ['console-log']],
    ['src/a.ts', 'const s = "/*";\nconsole.log(y);\n', ['console-log']],
    ['src/a.ts', "const s = '/*';\nconsole.log(y);\n", ['console-log']],
    ['src/a.ts', '/* a */ /*\nconsole.log(x);\n*/\n', []],
    ['src/a.ts', 'x(); /* start\n  console.log(x);\n  end */ y();\n', []],
    ['app/m.py', '"""\nbreakpoint()\n"""\nbreakpoint()\n', ['breakpoint']],
    ['app/m.py', "'''\nbreakpoint()\n'''\n", []],
    ['app/m.py', '"""\nx = \'\'\'\nbreakpoint()\n"""\n', []],
    ['app/m.py', '"""\nx = \'\'\'\n"""\nbreakpoint()\n', ['breakpoint']],
    ['src/a.ts', 'const n = 1/"a"*2;\nconsole.log(n);\n', ['console-log']],
    ['src/a.ts', 'const re = /a*/;\nconsole.log(re);\n', ['console-log']],
    ['app/m.py', 's = "/*"\nbreakpoint()\n', ['breakpoint']],
    ['lib/r.rb', '=begin\nbinding.pry\n=end\nbinding.pry\n', ['debugger']],
    ['lib/r.rb', '=begin\nbinding.pry\n=end\n', []],
    ['lib/r.rb', 'x = 1 */\nbinding.pry\n', ['debugger']],
    ['src/l.rs', '/*\ndbg!(x);\n*/\ndbg!(y);\n', ['dbg']],
    ['src/l.rs', '/*\ndbg!(x);\n', []],
    // A line that starts like a comment's continuation is skipped in JS, not in Python.
    ['src/a.ts', ' * console.log(x)\n', []],
    ['app/m.py', '*args, = f(); breakpoint()\n', ['breakpoint']],
  ];
  test.each(cases)('%s: %j', async (file, content, expected) => {
    expect(await rules(file, content)).toEqual(expected);
  });
});

describe('markers and output files', () => {
  const cases: Array<[string, string, string[]]> = [
    ['src/a.ts', '// avp:allow-debug\nconsole.log(x);\n', []],
    ['src/a.ts', '# avp:allow-debug\nconsole.log(x);\n', []],
    ['src/a.ts', '/* avp:allow-debug */\nconsole.log(x);\n', []],
    ['src/a.ts', ' * avp:allow-debug\nconsole.log(x);\n', []],
    ['src/a.ts', 'f("avp:allow-debug");\nconsole.log(x);\n', ['console-log']],
    ['src/a.ts', '// avp:allow-debug\n\nconsole.log(x);\n', ['console-log']],
    ['src/cli.ts', 'console.log(x);\ndebugger;\n', ['debugger']],
    ['src/a.ts', '#!/usr/bin/env node\ndebugger;\n', ['debugger']],
    ['app/cli.py', 'print(x)\nbreakpoint()\n', ['breakpoint']],
  ];
  test.each(cases)('%s: %j', async (file, content, expected) => {
    expect(await rules(file, content)).toEqual(expected);
  });
});

test('a marker excuses the added line right below it only, not the next added line further down', async () => {
  const before = 'a();\nb();\n';
  const after = '// avp:allow-debug\na();\nconsole.log(x);\nb();\n';
  expect(validate(await fileEvent('src/a.ts', after, before)).violations).toMatchObject([{ line: 3 }]);
});

describe("the verdict's words", () => {
  test('each rule: its message and the suggestion of its language, the added line trimmed as snippet', async () => {
    const one = async (file: string, content: string) => validate(await fileEvent(file, content)).violations[0];
    expect(await one('src/a.ts', '  console.log(x);\n')).toEqual({
      rule: 'console-log',
      file: 'src/a.ts',
      line: 1,
      snippet: 'console.log(x);',
      message: 'console.log left in the code',
      suggestion:
        "Remove it before finishing, or use the project's logger; keep it on purpose with `// avp:allow-debug`.",
    });
    expect(await one('src/a.ts', 'debugger;\n')).toMatchObject({ message: 'debugger statement left in the code' });
    expect(await one('app/m.py', 'breakpoint()\n')).toMatchObject({
      message: 'debugger breakpoint left in the code',
      suggestion: 'Remove it, or use the logging module (logger.debug); keep it on purpose with `# avp:allow-debug`.',
    });
    expect(await one('app/m.py', 'print(x)\n')).toMatchObject({ rule: 'print', message: 'print() left in the code' });
    expect(await one('src/l.rs', 'dbg!(x);\n')).toMatchObject({
      message: 'dbg! left in the code',
      suggestion: 'Remove dbg! before finishing (use log/tracing macros for lasting output).',
    });
    expect(await one('lib/r.rb', 'binding.pry\n')).toMatchObject({
      message: 'debugger breakpoint left in the code',
      suggestion: 'Remove the breakpoint before finishing.',
    });
    expect(await one('lib/r.rb', "require 'byebug'\n")).toMatchObject({ message: 'debugger require left in the code' });
    expect(await one('src/P.php', '<?php\nvar_dump($x);\n')).toMatchObject({
      message: 'var_dump/dd left in the code',
      suggestion: "Remove the dump before finishing, or use the project's logger.",
    });
    expect(await one('src/P.php', '<?php\nprint_r($x);\n')).toMatchObject({
      message: 'print_r/var_export left in the code',
    });
    const long = `console.log(${'x'.repeat(200)});`;
    expect((await one('src/a.ts', long))!.snippet).toBe(long.slice(0, 160));
  });

  test('the summary counts statements and lines, singular and plural, with file:line or the file alone', async () => {
    const v = async (file: string, content: string) => validate(await fileEvent(file, content)).summary;
    expect(await v('src/a.ts', 'console.log(x);\n')).toBe('1 debugging statement added: src/a.ts:1');
    expect(await v('src/a.ts', 'console.log(x);\ndebugger;\n')).toBe(
      '2 debugging statements added: src/a.ts:1, src/a.ts:2',
    );
    expect(await v('src/a.ts', 'x();\n')).toBe('no debugging statements in 1 added line');
    expect(await v('src/a.ts', 'x();\ny();\n')).toBe('no debugging statements in 2 added lines');
    const noLine = validate({
      tool: 'MultiEdit',
      toolInput: { file_path: '/nowhere/src/a.ts', edits: [{ old_string: 'a', new_string: 'console.log(x);' }] },
      cwd: '/nowhere',
      projectRoot: '/nowhere',
      files: [],
    });
    expect(noLine.summary).toBe('1 debugging statement added: src/a.ts');
    expect(noLine.violations[0]).not.toHaveProperty('line');
  });
});
