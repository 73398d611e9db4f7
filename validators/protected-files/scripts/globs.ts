/**
 * protected-files' glob language compiled to regular expressions, each only when a path could match it.
 *
 * A hook call asks about one or two paths, and almost every path matches none of the list's patterns. Translating
 * and compiling every pattern up front (two expressions each: exact and case-folded) was most of this validator's
 * ~1.6 ms on a Write with the catalog's 132-line list, run as cold code in the hook process; now it takes ~0.9 ms.
 * A path that does not contain a glob's longest literal text cannot match it, so it is answered without an
 * expression; the expression is made and compiled the first time a path does.
 */

/**
 * Glob → RegExp source: `**` spans directories, `*` and `?` stay within one, `{a,b}` alternates, `[…]` is a set.
 * A `[` or `{` that is never closed is taken literally, as gitignore and fnmatch take it (a typo in a user's list
 * must neither hang the validator nor widen what it matches).
 */
export function globSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    const close = c === '{' ? glob.indexOf('}', i) : c === '[' ? glob.indexOf(']', i) : -1;
    if (glob.startsWith('**/', i)) ((out += '(?:.*/)?'), (i += 2));
    else if (glob.startsWith('**', i)) ((out += '.*'), (i += 1));
    else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{' && close !== -1) {
      out += `(?:${glob
        .slice(i + 1, close)
        .split(',')
        .map(globSource)
        .join('|')})`;
      i = close;
    } else if (c === '[' && close !== -1) {
      out += glob.slice(i, close + 1);
      i = close;
    } else out += /[.+^$()|\\[{]/.test(c) ? `\\${c}` : c;
  }
  return out;
}

/** What ends a run of literal characters: `**\/` with its slash, a wildcard, a closed set, a closed alternation. */
const NOT_LITERAL = /\*\*\/|[*?]|\[[^\]]*\]|\{[^}]*\}/;

/**
 * The longest text every path matching `glob` contains as it is: a run of the characters `globSource` copies one for
 * one (`**\/.env` matches `.env` at the top, without the slash). One split by a native expression: this runs for
 * every line of the list on every call, as cold code.
 */
export function requiredText(glob: string): string {
  let best = '';
  for (const run of glob.split(NOT_LITERAL)) if (run.length > best.length) best = run;
  return best;
}

/**
 * A test of `subject` against the expression `source()` makes of `glob`, `nocase` folding case as the `i` flag does.
 * Compiled on the first subject that contains the glob's required text; a required text with other than ASCII
 * characters is not used to rule out a case-folded subject (the flag and `toLowerCase` fold those differently).
 */
export function lazyGlobTest(glob: string, source: () => string): (subject: string, nocase?: boolean) => boolean {
  const text = requiredText(glob);
  // Folded on the first case-folded subject (a file system that ignores case): on the others, never (~0.1 ms a list).
  let folded: string | undefined;
  let exact: RegExp | undefined;
  let caseless: RegExp | undefined;
  return (subject, nocase) => {
    if (nocase) {
      folded ??= /^[\x20-\x7e]*$/.test(text) ? text.toLowerCase() : '';
      if (folded && !subject.toLowerCase().includes(folded)) return false;
      return (caseless ??= new RegExp(source(), 'i')).test(subject);
    }
    if (!subject.includes(text)) return false;
    return (exact ??= new RegExp(source())).test(subject);
  };
}
