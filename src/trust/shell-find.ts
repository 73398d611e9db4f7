/**
 * `find` in a shell command: its expression read as terms and branches, so only a branch that writes (`-delete`,
 * `-exec` of a command that writes) is judged, and one limited to names no control path has passes.
 */
import { basename, relative, sep } from 'node:path';
import { READERS, type Arg } from './shell-commands.ts';
import { judge } from './shell-targets.ts';
import { pathOf, type Context, type State } from './shell-words.ts';

/** `find` primaries that take one value (`-name PATTERN`), which is never an operator however it reads. */
const FIND_VALUED = new Set(
  (
    'name iname path ipath wholename iwholename regex iregex lname ilname newer anewer cnewer perm type xtype user ' +
    'group uid gid size mtime mmin atime amin ctime cmin used links inum samefile maxdepth mindepth fstype context ' +
    'printf fprint fprint0 fls files0-from regextype'
  )
    .split(' ')
    .map((p) => `-${p}`),
);

/**
 * A `find` expression as terms: an operator (`(`, `!`, `-o` …), or a primary with its values (`-name x`, `-exec rm
 * {} ;` — a command's arguments, up to `;` or `{} +`, are its own and never operators).
 */
function findTerms(expr: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < expr.length; i++) {
    const a = expr[i]!;
    let end = i;
    if (/^-(?:exec|execdir|ok|okdir)$/.test(a)) {
      end = i + 1;
      while (end < expr.length && expr[end] !== ';' && !(expr[end] === '+' && expr[end - 1] === '{}')) end++;
    } else if (FIND_VALUED.has(a) || /^-newer[a-zA-Z]{2}$/.test(a)) end = i + 1;
    else if (a === '-fprintf') end = i + 2;
    out.push(expr.slice(i, end + 1));
    i = end;
  }
  return out;
}

/** True when a `find` branch changes what it matches: `-delete`, `-fprint`, or `-exec` of a command that writes. */
function findWrites(branch: string[][]): boolean {
  return branch.some(
    ([a, cmd]) =>
      /^-(?:delete|fprint0?|fprintf|fls)$/.test(a!) ||
      (/^-(?:exec|execdir|ok|okdir)$/.test(a!) && !READERS.has(basename(cmd ?? ''))),
  );
}

/** A `find` expression's top-level branches (split at `-o`, `-or` and `,` outside parentheses). */
function findBranches(terms: string[][]): string[][][] {
  const out: string[][][] = [[]];
  let depth = 0;
  for (const t of terms) {
    if (t[0] === '(') depth++;
    else if (t[0] === ')') depth--;
    if (depth === 0 && t.length === 1 && ['-o', '-or', ','].includes(t[0]!)) out.push([]);
    else out[out.length - 1]!.push(t);
  }
  return out;
}

/**
 * The names a writing branch is limited to — a `-name`/`-iname` test it must pass (or a group of them joined by
 * `-o`), not negated — `[]` when it only reaches empty files (`-empty`), undefined when it can reach any name.
 */
function findBranchNames(branch: string[][]): RegExp[] | undefined {
  const name = (t: string[] | undefined) =>
    t && (t[0] === '-name' || t[0] === '-iname') ? globRegex(t[1] ?? '*', t[0] === '-iname') : undefined;
  let depth = 0;
  for (let j = 0; j < branch.length; j++) {
    const t = branch[j]!;
    if (t[0] === ')') depth--;
    const negated = j > 0 && (branch[j - 1]![0] === '!' || branch[j - 1]![0] === '-not');
    if (depth === 0 && !negated) {
      if (t[0] === '-empty') return [];
      const n = name(t);
      if (n) return [n];
      if (t[0] === '(') {
        // `( -name A -o -name B )`: either name.
        const names: RegExp[] = [];
        let k = j + 1;
        for (; k < branch.length && branch[k]![0] !== ')'; k++) {
          const m = name(branch[k]);
          if (m) names.push(m);
          else if (!['-o', '-or'].includes(branch[k]![0]!)) break;
        }
        if (branch[k]?.[0] === ')' && names.length) return names;
      }
    }
    if (t[0] === '(') depth++;
  }
  return undefined;
}

/**
 * `find ROOTS EXPR` with `-delete` or `-exec CMD {} ;`: the roots' trees are changed by each branch of EXPR that
 * writes (`-path ./node_modules -prune -o -name '*.tmp' -delete` writes only in its second branch). Harmless when
 * every writing branch picks files by a name no control path under the roots has, or only empty ones.
 */
export function find(rest: Arg[], st: State, ctx: Context): void {
  const roots: Arg[] = [];
  let i = 0;
  while (i < rest.length && !/^[-(!]/.test(rest[i]!.text)) roots.push(rest[i++]!);
  const writing = findBranches(findTerms(rest.slice(i).map((a) => a.text))).filter(findWrites);
  if (!writing.length) return;
  const limits = writing.map(findBranchNames);
  const names = limits.every((l) => l !== undefined) ? limits.flat() : undefined;
  for (const r of roots.length ? roots : [{ text: '.', exact: true, literal: '.' }]) {
    const path = pathOf(r, st);
    if (names && path !== undefined) {
      const top = ctx.fold(path);
      const hit = ctx.table.within(top).some((c) =>
        relative(top, c)
          .split(sep)
          .some((part) => names.some((n) => n.test(part))),
      );
      if (!hit) continue;
    }
    judge(r, st, ctx, true, 'lets find change what it finds under');
  }
}

/** A `find -name` pattern as a regular expression over one name. */
function globRegex(glob: string, nocase: boolean): RegExp {
  const body = glob
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${body}$`, nocase ? 'i' : '');
}
