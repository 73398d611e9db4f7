#!/usr/bin/env bun
/**
 * no-debug-leftovers — avp catalog script judge (self-contained: Bun/Node built-ins and the files next to it).
 *
 * PostToolUse on Write/Edit/MultiEdit: warns about debugging statements the change ADDED to non-test source —
 * console.log/debug/trace/dir/table and `debugger` (JS/TS), breakpoint()/pdb and print() in library modules (Python),
 * dbg! (Rust), binding.pry/byebug (Ruby), var_dump/print_r/dd (PHP). Comments, strings, tests, CLIs and scripts are
 * skipped; `avp:allow-debug` on the line (or a comment line right above) keeps one on purpose.
 */
import { changes, type HookEvent, type Verdict, type Violation } from './added-lines.ts';

export type { Verdict } from './added-lines.ts';

// ---------------------------------------------------------------------------------------------------------------
// Languages, code without comments and strings
// ---------------------------------------------------------------------------------------------------------------

type Lang = 'js' | 'py' | 'rs' | 'rb' | 'php';

function langOf(file: string): Lang | undefined {
  if (/\.(?:[cm]?[jt]sx?|vue|svelte|astro)$/i.test(file)) return 'js';
  if (/\.pyw?$/i.test(file)) return 'py';
  if (/\.rs$/i.test(file)) return 'rs';
  if (/\.rb$/i.test(file)) return 'rb';
  if (/\.php$/i.test(file)) return 'php';
  return undefined;
}

const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|specs?|e2e|cypress|playwright|fixtures|__mocks__|mocks|testdata|test-data)\/|(?:^|\/)[^/]*(?:\.test|\.spec|_test|_spec|\.stories)\.[^/]+$|(?:^|\/)(?:test_[^/]+\.py|conftest\.py)$/i;
/** Where printing is the program's job: scripts, CLIs, examples, loggers, build configuration. */
const OUTPUT_PATH =
  /(?:^|\/)(?:scripts?|bin|tools|examples?|samples?|bench(?:marks?)?|docs?|notebooks?)\/|(?:^|\/)(?:cli|__main__|main|manage|setup|noxfile|fabfile|tasks|build|log|logs|logger|logging)\.[^/]+$|(?:^|\/)[^/]*(?:\.config\.|example)[^/]*$|(?:^|\/)(?:gulpfile|Gruntfile|Jakefile)\.[^/]+$/i;
/** Generated or minified code is not written by hand. */
const GENERATED = /\.min\.[^/]+$|(?:^|\/)(?:dist|build|out|vendor)\//;

/** Source of a command-line program: a `__main__` block, argument parsing, a CLI framework. */
const CLI_SOURCE =
  /__name__\s*==\s*['"]__main__['"]|^\s*(?:import|from)\s+(?:argparse|click|typer|fire)\b|\bsys\.argv\b|\bprocess\.argv\b|from\s+['"](?:commander|yargs|citty|cac|meow|sade|clipanion)['"]|require\(['"](?:commander|yargs)['"]\)/m;

/** The code of one line with string contents blanked and the line comment removed. */
function codeOnly(line: string, lang: Lang): string {
  const quotes = lang === 'js' ? '\'"`' : lang === 'rs' ? '"' : '\'"';
  let out = '';
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\') ((out += '  '), i++);
      else if (c === quote) ((quote = ''), (out += c));
      else out += ' ';
      continue;
    }
    if (quotes.includes(c)) ((quote = c), (out += c));
    else if ((lang === 'py' || lang === 'rb' || lang === 'php') && c === '#') break;
    else if (lang !== 'py' && lang !== 'rb' && line.startsWith('//', i)) break;
    else if (lang !== 'py' && lang !== 'rb' && line.startsWith('/*', i)) {
      const end = line.indexOf('*/', i + 2);
      if (end < 0) break;
      out += ' '.repeat(end + 2 - i);
      i = end + 1;
    } else out += c;
  }
  return out;
}

/** 1-based line numbers of `after` that start inside a block comment or a Python docstring/triple-quoted string. */
function blockLines(after: string, lang: Lang): Set<number> {
  const inside = new Set<number>();
  const open = lang === 'py' ? /"""|'''/g : lang === 'rb' ? /^=begin|^=end/g : /\/\*|\*\//g;
  let state: string | undefined;
  for (const [i, line] of after.split('\n').entries()) {
    if (state) inside.add(i + 1);
    const code = lang === 'py' || lang === 'rb' ? line : line.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""');
    for (const m of code.matchAll(open)) {
      const tok = m[0];
      if (!state && (tok === '/*' || tok === '"""' || tok === "'''" || tok === '=begin')) state = tok;
      else if (state && (tok === '*/' ? state === '/*' : tok === '=end' ? state === '=begin' : tok === state))
        state = undefined;
    }
  }
  return inside;
}

// ---------------------------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------------------------

interface Rule {
  id: string;
  re: RegExp;
  what: string;
  /** Rejects a match that is legitimate (e.g. print_r(…, true) returns a string). */
  unless?: RegExp;
  /** Not in files whose job is output (CLIs, scripts). */
  output?: boolean;
  /** Match the raw line (the pattern itself needs the string, e.g. `require 'pry'`); comments are still skipped. */
  raw?: boolean;
}

const RULES: Record<Lang, Rule[]> = {
  js: [
    {
      id: 'console-log',
      re: /\bconsole\.(?:log|debug|trace|dir|dirxml|table)\s*\(/,
      what: 'console.log',
      output: true,
    },
    { id: 'debugger', re: /(?:^|[;{}\s])debugger\s*(?:;|$)/, what: 'debugger statement' },
  ],
  py: [
    {
      id: 'breakpoint',
      re: /\bbreakpoint\s*\(\s*\)|\b(?:i?pdb|pudb|ipdb)\.set_trace\s*\(|^\s*(?:import\s+(?:i?pdb|pudb)\b|from\s+(?:i?pdb|pudb)\s+import\b)/,
      what: 'debugger breakpoint',
    },
    { id: 'print', re: /^\s*print\s*\(/, what: 'print()', unless: /\bfile\s*=/, output: true },
  ],
  rs: [{ id: 'dbg', re: /\bdbg!\s*\(/, what: 'dbg!' }],
  rb: [
    {
      id: 'debugger',
      re: /\bbinding\.(?:pry|irb)\b|^\s*(?:byebug|debugger|binding\.pry)\s*$/,
      what: 'debugger breakpoint',
    },
    { id: 'debugger', re: /^\s*require\s+['"](?:pry|byebug|debug)['"]\s*$/, what: 'debugger require', raw: true },
  ],
  php: [
    { id: 'var-dump', re: /\b(?:var_dump|dd|xdebug_break)\s*\(/, what: 'var_dump/dd' },
    { id: 'var-dump', re: /\b(?:print_r|var_export)\s*\((?![^)]*,\s*true\s*\))/i, what: 'print_r/var_export' },
  ],
};

/** A word every match of the language's rules contains: lines without one are skipped before the real work. */
const HINTS: Record<Lang, RegExp> = {
  js: /console|debugger/,
  py: /breakpoint|set_trace|pdb|pudb|print/,
  rs: /dbg!/,
  rb: /binding|byebug|debugger|require/,
  php: /var_dump|dd|xdebug_break|print_r|var_export/i,
};

/** Our marker, and the linters' own suppressions: someone already decided this output is intended. */
const ALLOW =
  /avp:allow-debug|eslint-disable(?:-next)?-line[^\n]*no-(?:console|debugger)|biome-ignore[^\n]*noConsole|noqa(?::[^\n]*\bT20[13]\b)?|pylint:\s*disable=[^\n]*print/i;
/** Output behind a debug switch (`if (process.env.DEBUG) console.log(…)`, `if DEBUG: print(…)`) is meant to stay. */
const DEBUG_GUARD = /\bif\s*\(?[^)\n]*\b(?:DEBUG|debug|VERBOSE|verbose)\b/;
const SUGGESTION: Record<Lang, string> = {
  js: "Remove it before finishing, or use the project's logger; keep it on purpose with `// avp:allow-debug`.",
  py: 'Remove it, or use the logging module (logger.debug); keep it on purpose with `# avp:allow-debug`.',
  rs: 'Remove dbg! before finishing (use log/tracing macros for lasting output).',
  rb: 'Remove the breakpoint before finishing.',
  php: "Remove the dump before finishing, or use the project's logger.",
};

/** Judges an event: warns about debugging statements in added lines of non-test source. */
export function validate(event: HookEvent): Verdict {
  const violations: Violation[] = [];
  let scanned = 0;
  for (const { file, added, after } of changes(event)) {
    const lang = langOf(file);
    if (!lang || TEST_PATH.test(file) || GENERATED.test(file)) continue;
    // A CLI (shebang), a Python script run as __main__ or a script directory prints by design.
    const outputFile = OUTPUT_PATH.test(file) || (after ?? '').startsWith('#!') || CLI_SOURCE.test(after ?? '');
    const blocks = after ? blockLines(after, lang) : new Set<number>();
    for (const [i, a] of added.entries()) {
      scanned++;
      const prev = added[i - 1];
      if (
        ALLOW.test(a.text) ||
        DEBUG_GUARD.test(a.text) ||
        (prev && prev.line === (a.line ?? NaN) - 1 && ALLOW.test(prev.text) && /^\s*(?:\/\/|#|\/\*|\*)/.test(prev.text))
      )
        continue;
      if (a.line !== undefined && blocks.has(a.line)) continue;
      if (/^\s*(?:\*|\/\*)/.test(a.text) && lang !== 'py') continue;
      // A line without any rule's keyword needs no more work. (Not the rules themselves on the raw line: removing a
      // comment can make one match — `debugger // pause`, `byebug # why`, `else/* c */debugger;`.)
      if (!HINTS[lang].test(a.text)) continue;
      const code = codeOnly(a.text, lang);
      for (const r of RULES[lang]) {
        if ((r.output && outputFile) || !r.re.test(r.raw ? a.text : code) || r.unless?.test(a.text)) continue;
        violations.push({
          rule: r.id,
          file,
          ...(a.line === undefined ? {} : { line: a.line }),
          snippet: a.text.trim().slice(0, 160),
          message: `${r.what} left in the code`,
          suggestion: SUGGESTION[lang],
        });
        break;
      }
    }
  }
  return {
    passed: violations.length === 0,
    violations,
    summary: violations.length
      ? `${violations.length} debugging statement${violations.length > 1 ? 's' : ''} added: ${violations.map((v) => (v.line ? `${v.file}:${v.line}` : v.file)).join(', ')}`
      : `no debugging statements in ${scanned} added line${scanned === 1 ? '' : 's'}`,
  };
}

if (import.meta.main) {
  try {
    const event = JSON.parse(await Bun.stdin.text()) as HookEvent;
    // console.log, not process.stdout.write: initialising Node's stdout stream costs ~10 ms of CPU per run.
    console.log(JSON.stringify(validate(event)));
  } catch (err) {
    console.error(`no-debug-leftovers: cannot read the event on stdin: ${(err as Error).message}`);
    process.exit(1);
  }
}
