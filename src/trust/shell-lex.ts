/**
 * A POSIX shell lexer for the guard: splits a command line into words, operators and redirections the way `sh` would
 * read them (quotes, escapes, `$'…'`, `$(…)`, backticks, process substitution, heredocs), without running anything.
 * Expansions are kept as parts (a variable, a command substitution) so the guard can resolve the ones it knows
 * (`$HOME`, `~`) and treat the rest as unknown. Bounded: the guard refuses what it cannot read, so a lexer error is
 * a refusal, never a pass.
 */

/** One piece of a word: literal text (quoted: no glob), a `$NAME` / `${NAME}` expansion, a command substitution. */
export type Part =
  | { kind: 'lit'; text: string; quoted: boolean }
  | { kind: 'var'; name: string; fallback?: string; quoted?: boolean }
  | { kind: 'sub'; script: string }
  | { kind: 'tilde'; user: string };

export interface Word {
  parts: Part[];
}

/** A redirection: `op` is the operator without its fd number (`>`, `>>`, `>|`, `&>`, `<`, `<<`, `>&` …). */
export interface Redirect {
  op: string;
  target: Word;
  /** A heredoc's body (`<<EOF … EOF`, `<<<word` has its word as target). */
  body?: string;
}

export type Token = { type: 'word'; word: Word } | { type: 'op'; op: string } | { type: 'redir'; redir: Redirect };

export class ShellSyntaxError extends Error {}

/** The text of a word with every expansion left out (what a reader of the command sees literally). */
export function literalText(word: Word): string {
  const shown = (p: Part) =>
    p.kind === 'lit'
      ? p.text
      : p.kind === 'tilde'
        ? `~${p.user}`
        : p.kind === 'var'
          ? p.fallback !== undefined
            ? `\${${p.name}:-${p.fallback}}`
            : `$${p.name || '?'}`
          : '$(…)';
  return word.parts.map(shown).join('');
}

const OPERATORS = ['&&', '||', ';;', '|&', ';', '|', '&', '(', ')', '\n'];
const REDIRS = ['&>>', '&>', '<<<', '<<-', '<<', '<>', '<&', '>&', '>>', '>|', '<', '>'];
const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/** `$'…'` escapes: what obfuscation uses to spell a path (`$'\x2eclaude'`). */
function ansiC(s: string, i: number): { text: string; end: number } {
  let out = '';
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b' };
  while (i < s.length && s[i] !== "'") {
    if (s[i] !== '\\') {
      out += s[i++];
      continue;
    }
    const c = s[i + 1] ?? '';
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(s.slice(i + 1));
    const oct = /^([0-7]{1,3})/.exec(s.slice(i + 1));
    // As bash reads them: `\u` takes at most four hex digits, `\U` eight (`$'\u002eclaude'` is `.claude`).
    const uni = /^(?:u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8}))/.exec(s.slice(i + 1));
    if (hex) {
      out += String.fromCharCode(parseInt(hex[1]!, 16));
      i += 1 + hex[0].length;
    } else if (uni) {
      out += String.fromCodePoint(Math.min(parseInt(uni[1] ?? uni[2]!, 16), 0x10ffff));
      i += 1 + uni[0].length;
    } else if (oct) {
      out += String.fromCharCode(parseInt(oct[1]!, 8));
      i += 1 + oct[0].length;
    } else {
      out += simple[c] ?? c;
      i += 2;
    }
  }
  if (i >= s.length) throw new ShellSyntaxError("unterminated $'…'");
  return { text: out, end: i + 1 };
}

/** The index just past the `)` closing a `$(` / `<(` opened before `i` (quotes and nesting respected). */
function closeParen(s: string, i: number): number {
  let depth = 1;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') i += 2;
    else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) break;
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
      i++;
    } else {
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return i + 1;
      i++;
    }
  }
  throw new ShellSyntaxError('unterminated $( … )');
}

/** `$…` at `i` (the `$` itself): the part it makes and where it ends. */
function dollar(s: string, i: number): { part: Part; end: number } {
  const next = s[i + 1] ?? '';
  if (s.startsWith('$((', i)) {
    const end = closeParen(s, i + 2);
    return { part: { kind: 'var', name: '' }, end };
  }
  if (next === '(') {
    const end = closeParen(s, i + 2);
    return { part: { kind: 'sub', script: s.slice(i + 2, end - 1) }, end };
  }
  if (next === '{') {
    const end = s.indexOf('}', i + 2);
    if (end < 0) throw new ShellSyntaxError('unterminated ${');
    const inner = s.slice(i + 2, end);
    // `${HOME}` is HOME; `${X:-word}` is X or, unset, the word (kept as text); `${#X}`, `${!X}` … are values the
    // guard cannot know.
    const fallback = /^([A-Za-z_]\w*):?-([^{}()`]*)$/.exec(inner);
    if (fallback) return { part: { kind: 'var', name: fallback[1]!, fallback: fallback[2]! }, end: end + 1 };
    return { part: { kind: 'var', name: /^[A-Za-z_]\w*$/.test(inner) ? inner : '' }, end: end + 1 };
  }
  const name = /^[A-Za-z_]\w*/.exec(s.slice(i + 1));
  if (name) return { part: { kind: 'var', name: name[0] }, end: i + 1 + name[0].length };
  if (/^[0-9@*#?$!-]/.test(next)) return { part: { kind: 'var', name: '' }, end: i + 2 };
  return { part: { kind: 'lit', text: '$', quoted: false }, end: i + 1 };
}

/** Splits `script` into tokens. Throws ShellSyntaxError on what sh itself could not read (an open quote). */
export function lex(script: string): Token[] {
  const s = script;
  const tokens: Token[] = [];
  const heredocs: Redirect[] = [];
  let i = 0;
  let parts: Part[] | undefined;
  let pendingRedir: string | undefined;
  const lit = (text: string, quoted: boolean) => {
    parts ??= [];
    const last = parts[parts.length - 1];
    if (last?.kind === 'lit' && last.quoted === quoted) last.text += text;
    else parts.push({ kind: 'lit', text, quoted });
  };
  const endWord = () => {
    if (!parts) return;
    const word = { parts };
    parts = undefined;
    if (pendingRedir !== undefined) {
      const redir: Redirect = { op: pendingRedir, target: word };
      pendingRedir = undefined;
      if (redir.op === '<<' || redir.op === '<<-') heredocs.push(redir);
      tokens.push({ type: 'redir', redir });
    } else tokens.push({ type: 'word', word });
  };
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') {
      if (s[i + 1] === '\n') i += 2;
      else {
        lit(s[i + 1] ?? '', true);
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError('unterminated single quote');
      lit(s.slice(i + 1, end), true);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      parts ??= [];
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\' && i + 1 < s.length) {
          const n = s[i + 1]!;
          lit(/[$`"\\\n]/.test(n) ? (n === '\n' ? '' : n) : `\\${n}`, true);
          i += 2;
        } else if (s[i] === '$') {
          const d = dollar(s, i);
          // A variable inside double quotes is one field, never split or globbed.
          parts.push(d.part.kind === 'lit' || d.part.kind === 'var' ? { ...d.part, quoted: true } : d.part);
          i = d.end;
        } else if (s[i] === '`') {
          const end = s.indexOf('`', i + 1);
          if (end < 0) throw new ShellSyntaxError('unterminated backquote');
          parts.push({ kind: 'sub', script: s.slice(i + 1, end) });
          i = end + 1;
        } else lit(s[i++]!, true);
      }
      if (i >= s.length) throw new ShellSyntaxError('unterminated double quote');
      i++;
      continue;
    }
    if (c === '$' && s[i + 1] === "'") {
      const a = ansiC(s, i + 2);
      lit(a.text, true);
      i = a.end;
      continue;
    }
    if (c === '$') {
      const d = dollar(s, i);
      parts ??= [];
      parts.push(d.part);
      i = d.end;
      continue;
    }
    if (c === '`') {
      const end = s.indexOf('`', i + 1);
      if (end < 0) throw new ShellSyntaxError('unterminated backquote');
      parts ??= [];
      parts.push({ kind: 'sub', script: s.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    // Process substitution `<(…)` / `>(…)`: a word whose command runs (its writes count).
    if ((c === '<' || c === '>') && s[i + 1] === '(') {
      const end = closeParen(s, i + 2);
      parts ??= [];
      parts.push({ kind: 'sub', script: s.slice(i + 2, end - 1) });
      i = end;
      continue;
    }
    if (c === '#' && !parts) {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    // `~` starts a word, or a value in an assignment (`X=~/.claude`, `PATH=a:~/bin`), as in sh.
    const last = parts?.[parts.length - 1];
    const afterAssign =
      parts?.length === 1 && last?.kind === 'lit' && !last.quoted && /^[A-Za-z_]\w*=$|:$/.test(last.text);
    if (c === '~' && (!parts || afterAssign)) {
      const user = /^~([A-Za-z0-9._-]*)(?=\/|$|[\s;&|)<>:])/.exec(s.slice(i));
      if (user) {
        parts = [...(parts ?? []), { kind: 'tilde', user: user[1]! }];
        i += user[0].length;
        continue;
      }
    }
    if (!META.has(c)) {
      lit(c, false);
      i++;
      continue;
    }
    // A number right before `<`/`>` is the redirected fd (`2>`), not a word.
    const fd = parts?.length === 1 && parts[0]!.kind === 'lit' && !parts[0]!.quoted && /^\d+$/.test(parts[0]!.text);
    if ((c === '<' || c === '>') && fd) parts = undefined;
    endWord();
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    const redir = REDIRS.find((r) => s.startsWith(r, i));
    if (redir && (c !== '&' || redir.startsWith('&>'))) {
      if (pendingRedir !== undefined) throw new ShellSyntaxError(`a redirection without a target before ${redir}`);
      pendingRedir = redir;
      i += redir.length;
      continue;
    }
    const op = OPERATORS.find((o) => s.startsWith(o, i))!;
    if (pendingRedir !== undefined) throw new ShellSyntaxError(`a redirection without a target before ${op}`);
    tokens.push({ type: 'op', op: op === '\n' ? ';' : op });
    i += op.length;
    // Heredoc bodies start on the line after their operator.
    if (op === '\n' && heredocs.length) i = readHeredocs(s, i, heredocs.splice(0));
  }
  endWord();
  if (pendingRedir !== undefined) throw new ShellSyntaxError(`a redirection without a target (${pendingRedir})`);
  if (heredocs.length) readHeredocs(s, s.length, heredocs);
  return tokens;
}

/** Reads each heredoc's body from `i` on (a missing end line takes the rest, as bash does with a warning). */
function readHeredocs(s: string, i: number, docs: Redirect[]): number {
  for (const doc of docs) {
    const delim = literalText(doc.target);
    const strip = doc.op === '<<-';
    const lines: string[] = [];
    while (i < s.length) {
      const nl = s.indexOf('\n', i);
      const line = s.slice(i, nl < 0 ? s.length : nl);
      i = nl < 0 ? s.length : nl + 1;
      if ((strip ? line.replace(/^\t+/, '') : line) === delim) break;
      lines.push(line);
    }
    doc.body = lines.join('\n');
  }
  return i;
}
