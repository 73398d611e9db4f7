import { isAbsolute, relative } from 'node:path';

/**
 * Turns tool output into the short strings the protocol's `issues` / `errors` arrays hold: the relevant lines with
 * file:line where the tool gives them, never a whole log.
 */

const MAX_ISSUES = 20;
const MAX_LINE = 300;

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

function cleanLines(output: string): string[] {
  return output
    .replace(ANSI, '')
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+$/, ''));
}

function clip(s: string): string {
  return s.length > MAX_LINE ? `${s.slice(0, MAX_LINE - 1)}…` : s;
}

/** Absolute paths inside the project become relative (what the user wrote in changed_files). */
function rel(path: string, wd: string): string {
  if (!isAbsolute(path)) return path.replace(/^\.\//, '');
  const r = relative(wd, path);
  return r.startsWith('..') ? path : r;
}

/**
 * Files a formatter's check mode says are not formatted (prettier, black, ruff format, cargo fmt, gofmt -l, rubocop).
 */
export function unformattedFiles(output: string, wd: string): string[] {
  const files: string[] = [];
  for (const line of cleanLines(output)) {
    let m: RegExpExecArray | null;
    if ((m = /^\[warn\] (?!Code style issues)(.+)$/.exec(line))) files.push(m[1]!.trim());
    else if ((m = /^would reformat (.+)$/.exec(line))) files.push(m[1]!.trim());
    else if ((m = /^Would reformat: (.+)$/.exec(line))) files.push(m[1]!.trim());
    else if ((m = /^Diff in (.+?) at line (\d+):?$/.exec(line))) files.push(`${rel(m[1]!.trim(), wd)}:${m[2]}`);
    else if ((m = /^(\S+\.(go|rb|java|kt|py|rs|[cm]?[jt]sx?)):?$/.exec(line.trim()))) files.push(m[1]!);
  }
  return [...new Set(files.map((f) => rel(f, wd)))].slice(0, MAX_ISSUES);
}

/** `path:line[:col]` (and tsc's `path(line,col)`) at the start of a line, or rustc's `--> path:line:col`. */
const LOCATED = /^(?:\s*-->\s*)?([\w./@~+-][^\s:()]*\.[A-Za-z0-9]+)(?::(\d+)(?::(\d+))?|\((\d+),(\d+)\))/;
const NOISE = /^(>|npm warn|npm (ERR!|error) (code|path|errno|command|A complete log|Lifecycle)|\s*at |\s*$)/;
const RELEVANT =
  /\b(error|errors|warning|failed|failure|fail|FAIL|undefined|cannot|expected|unused|not found|exception)\b|✖|✗|×/i;

/**
 * The lines worth quoting: located diagnostics first (ESLint's stylish format is rejoined with its file header;
 * rustc's `error: …` is joined with its `--> file:line`), then other lines that say error/warning, bounded.
 */
export function relevantLines(output: string, wd: string): string[] {
  const lines = cleanLines(output);
  const out: string[] = [];
  let eslintFile: string | undefined;
  for (let i = 0; i < lines.length && out.length < MAX_ISSUES; i++) {
    const line = lines[i]!;
    if (/^\/\S+\.\w+$/.test(line) || /^[\w./-]+\.(m?[jt]sx?|cjs|vue)$/.test(line)) {
      eslintFile = rel(line, wd);
      continue;
    }
    const stylish = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)\s{2,}(\S+)$/.exec(line);
    if (stylish && eslintFile) {
      out.push(clip(`${eslintFile}:${stylish[1]}:${stylish[2]} ${stylish[3]} ${stylish[4]} (${stylish[5]})`));
      continue;
    }
    const rust = /^(error|warning)(\[\w+\])?: (.+)$/.exec(line);
    if (rust && !/^(error|warning): (could not compile|aborting|build failed|\d+ warnings? emitted)/.test(line)) {
      const loc = lines
        .slice(i + 1, i + 4)
        .map((l) => /^\s*-->\s*(\S+)/.exec(l))
        .find(Boolean);
      out.push(clip(loc ? `${rel(loc[1]!, wd)}: ${line}` : line));
      continue;
    }
    const located = LOCATED.exec(line);
    if (located && !/^\s*-->/.test(line)) {
      const [, file, l1, c1, l2, c2] = located;
      const where = `${rel(file!, wd)}:${l1 ?? l2}${(c1 ?? c2) ? `:${c1 ?? c2}` : ''}`;
      out.push(clip(`${where}${line.slice(located[0].length).replace(/^:?\s*/, ' ')}`.trim()));
    }
  }
  if (out.length === 0) {
    for (const line of lines) {
      if (out.length >= MAX_ISSUES) break;
      if (!NOISE.test(line) && RELEVANT.test(line)) out.push(clip(line.trim()));
    }
  }
  if (out.length === 0) {
    out.push(
      ...lines
        .filter((l) => l.trim() && !NOISE.test(l))
        .slice(-5)
        .map((l) => clip(l.trim())),
    );
  }
  return [...new Set(out)];
}

/**
 * Failing tests counted from the runner's summary (node:test, bun, jest, vitest, mocha, pytest, unittest, cargo, go,
 * rspec, minitest, maven, gradle). Undefined when no summary could be read.
 */
export function failingCount(output: string): number | undefined {
  const text = output.replace(ANSI, '');
  const sumAll = (re: RegExp) => {
    let total = 0;
    let seen = false;
    for (const m of text.matchAll(re)) {
      total += Number(m[1]);
      seen = true;
    }
    return seen ? total : undefined;
  };
  const last = (re: RegExp) => {
    const all = [...text.matchAll(re)];
    return all.length ? Number(all[all.length - 1]![1]) : undefined;
  };
  return (
    last(/^# fail (\d+)/gm) ?? // node --test (TAP)
    last(/^ℹ fail (\d+)/gm) ?? // node --test (spec)
    last(/^\s*(\d+) fail$/gm) ?? // bun test
    last(/Tests:\s+(?:\d+ \w+, )*?(\d+) failed/g) ?? // jest
    last(/Tests\s+(\d+) failed/g) ?? // vitest
    last(/^\s*(\d+) failing$/gm) ?? // mocha
    pytest(text) ??
    last(/^FAILED \((?:failures=(\d+))/gm) ?? // unittest
    sumAll(/test result: FAILED\. \d+ passed; (\d+) failed/g) ?? // cargo
    countGo(text) ??
    last(/\d+ examples?, (\d+) failures?/g) ?? // rspec
    minitest(text) ??
    maven(text) ??
    last(/(\d+) tests? completed, (?:\d+) failed/g)
  );
}

function pytest(text: string): number | undefined {
  const m = [...text.matchAll(/^=+ (.*\b(?:passed|failed|error|errors)\b.*) in [\d.]+s/gm)].pop();
  if (!m) return undefined;
  const failed = /(\d+) failed/.exec(m[1]!);
  const errors = /(\d+) errors?/.exec(m[1]!);
  return (failed ? Number(failed[1]) : 0) + (errors ? Number(errors[1]) : 0);
}

function countGo(text: string): number | undefined {
  if (!/^(ok|FAIL|---)\s/m.test(text)) return undefined;
  const n = [...text.matchAll(/^\s*--- FAIL: /gm)].length;
  return /^FAIL\s/m.test(text) || n > 0 ? n : undefined;
}

function minitest(text: string): number | undefined {
  const m = /\d+ runs, \d+ assertions, (\d+) failures, (\d+) errors/.exec(text);
  return m ? Number(m[1]) + Number(m[2]) : undefined;
}

function maven(text: string): number | undefined {
  const all = [...text.matchAll(/Tests run: \d+, Failures: (\d+), Errors: (\d+)/g)];
  const m = all.pop();
  return m ? Number(m[1]) + Number(m[2]) : undefined;
}
