/**
 * The two expansions sh applies to a word after variables, done here as sh would so that a control path spelt with
 * them is still seen: braces (`.claude/settings.{json,bak}`, `{a..c}`) and globs (`.cla?de/*`, matched against the
 * disk the way the command will find it). Only unquoted characters expand, so the caller marks them (`MARK`) while
 * joining a word's parts; quoted `*` or `{` stay plain characters.
 */
import { readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** Private-use stand-ins for unquoted `{` `,` `}` `*` `?` `[` `]` while a word is expanded. */
export const MARK: Record<string, string> = {
  '{': '\uE000',
  ',': '\uE001',
  '}': '\uE002',
  '*': '\uE003',
  '?': '\uE004',
  '[': '\uE005',
  ']': '\uE006',
};
const UNMARK = new Map(Object.entries(MARK).map(([k, v]) => [v, k]));
const unmark = (s: string) => s.replace(/[\uE000-\uE006]/g, (c) => UNMARK.get(c)!);
/** At most this many words come out of one word: more is refused as unreadable by the caller. */
export const MAX_WORDS = 256;

/** Stands where an unquoted variable's value had blanks: sh splits the word there (`F='a b'; rm $F` is two). */
export const FIELD_BREAK = '\uE007';

/**
 * An unquoted variable's value as sh uses it: split at blanks into fields, each globbed (`F=.cla*; rm -rf $F`
 * removes `.claude`); braces in a value stay plain.
 */
export function markValue(value: string): string {
  return value.replace(/[*?[\]]/g, (c) => MARK[c]!).replace(/[ \t\n]+/g, FIELD_BREAK);
}

/** Marks the characters of unquoted text that braces and globs act on. */
export function markUnquoted(text: string): string {
  return text.replace(/[{},*?[\]]/g, (c) => MARK[c]!);
}

/** `a{b,c}d` → `abd`, `acd`; `{1..3}` → 1, 2, 3; a brace without a comma or range stays as it is. */
function braces(s: string, out: string[]): void {
  if (out.length > MAX_WORDS) return;
  const open = s.indexOf(MARK['{']!);
  if (open < 0) {
    out.push(s);
    return;
  }
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === MARK['{']) depth++;
    else if (c === MARK['}'] && --depth === 0) {
      close = i;
      break;
    } else if (c === MARK[','] && depth === 1) commas.push(i);
  }
  const head = s.slice(0, open);
  if (close < 0) {
    out.push(...expandAll(`${head}{${s.slice(open + 1)}`));
    return;
  }
  const tail = s.slice(close + 1);
  const inner = s.slice(open + 1, close);
  let items: string[];
  if (commas.length) {
    const cuts = [open, ...commas, close];
    items = cuts.slice(0, -1).map((c, i) => s.slice(c + 1, cuts[i + 1]));
  } else {
    const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(unmark(inner));
    if (!range) {
      // Not a brace expansion: the braces are literal characters.
      for (const rest of expandAll(tail)) out.push(`${head}{${inner}}${rest}`);
      return;
    }
    items = sequence(range[1]!, range[2]!);
  }
  for (const item of items) braces(`${head}${item}${tail}`, out);
}

function expandAll(s: string): string[] {
  const out: string[] = [];
  braces(s, out);
  return out;
}

function sequence(a: string, b: string): string[] {
  const num = /\d/.test(a);
  const from = num ? Number(a) : a.charCodeAt(0);
  const to = num ? Number(b) : b.charCodeAt(0);
  const out: string[] = [];
  const step = from <= to ? 1 : -1;
  for (let i = from; out.length <= MAX_WORDS; i += step) {
    out.push(num ? String(i) : String.fromCharCode(i));
    if (i === to) break;
  }
  return out;
}

/** One path segment's glob as a regular expression (`[…]` classes kept, `[!…]` negated). */
function segmentRegex(seg: string): RegExp {
  let re = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === MARK['*']) re += '.*';
    else if (c === MARK['?']) re += '.';
    else if (c === MARK['[']) {
      const end = seg.indexOf(MARK[']']!, i + 2);
      if (end < 0) re += '\\[';
      else {
        const body = unmark(seg.slice(i + 1, end));
        re += `[${body.replace(/^[!^]/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += unmark(c).replace(/[.+^${}()|[\]\\*?]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * The paths a glob matches now, as the command will find them (hidden names only by a pattern starting with `.`);
 * undefined when it matches nothing (sh then passes the word as it is, and what it names is unknown).
 */
function glob(pattern: string, cwd: string | undefined): string[] | undefined {
  const absolute = isAbsolute(unmark(pattern));
  if (!absolute && cwd === undefined) return undefined;
  const segments = pattern.split('/');
  let bases = [absolute ? '/' : ''];
  for (const seg of segments) {
    if (!seg) continue;
    if (!/[\uE003-\uE005]/.test(seg)) {
      bases = bases.map((b) => (b ? join(b, unmark(seg)) : unmark(seg)));
      continue;
    }
    const re = segmentRegex(seg);
    const next: string[] = [];
    for (const b of bases) {
      let names: string[] = [];
      try {
        names = readdirSync(resolve(cwd ?? '/', b || '.'));
      } catch {
        continue;
      }
      for (const n of names) if ((n[0] !== '.' || seg[0] === '.') && re.test(n)) next.push(b ? join(b, n) : n);
    }
    if (!next.length || next.length > MAX_WORDS) return undefined;
    bases = next;
  }
  return bases;
}

/**
 * The words a marked word becomes: braces expanded, then each glob matched in `cwd`. `exact: false` for a glob that
 * matches nothing now (the guard cannot know what it will name).
 */
export function expandMarked(marked: string, cwd: string | undefined): Array<{ text: string; exact: boolean }> {
  const out: Array<{ text: string; exact: boolean }> = [];
  const fields = marked.split(FIELD_BREAK).filter((f, i, all) => f !== '' || all.length === 1);
  for (const word of fields.flatMap(expandAll).slice(0, MAX_WORDS)) {
    if (!/[\uE003-\uE005]/.test(word)) {
      out.push({ text: unmark(word), exact: true });
      continue;
    }
    const found = glob(word, cwd);
    if (found) out.push(...found.map((text) => ({ text, exact: true })));
    else out.push({ text: unmark(word), exact: false });
  }
  return out;
}
