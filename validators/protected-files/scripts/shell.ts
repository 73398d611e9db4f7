/**
 * A small POSIX-shell lexer for the catalog's command rules (self-contained: no npm packages). dangerous-commands and
 * protected-files each carry an identical copy, because a validator is installed alone (a test keeps them equal).
 * It is not a shell: it splits a command line into pipelines of simple commands with their words (quotes removed),
 * redirections, here-documents and the text of command substitutions, which is all the rules need to tell
 * `rm -rf /` from `echo "rm -rf /"` and `echo key >> ~/.ssh/authorized_keys` from `grep key ~/.ssh/authorized_keys`.
 */

export interface Command {
  /** Words with quotes removed (`"$HOME"` → `$HOME`). */
  words: string[];
  redirects: Array<{ op: string; target: string }>;
  /** Here-document or here-string text fed to the command's stdin. */
  stdin?: string;
}

export interface Parsed {
  /** Pipelines in order; each is the list of commands joined by `|`. */
  pipelines: Command[][];
  /** Bodies of `$(…)`, backticks and `<(…)`/`>(…)`: commands that run too. */
  substitutions: string[];
}

/** Index just past the `)` closing a `(` at `open` (quotes respected). */
function closeParen(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === "'") i = src.indexOf("'", i + 1) < 0 ? src.length : src.indexOf("'", i + 1);
    else if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return src.length;
}

/** Splits `src` into pipelines of commands. Never throws: unbalanced quotes run to the end of the input. */
export function parseShell(src: string): Parsed {
  const pipelines: Command[][] = [];
  const substitutions: string[] = [];
  // `$(( … ))` is arithmetic, not a command: only the substitutions nested in it run.
  const substitute = (body: string) => {
    if (body.startsWith('(') && body.endsWith(')')) substitutions.push(...parseShell(body.slice(1, -1)).substitutions);
    else substitutions.push(body);
  };
  let pipeline: Command[] = [];
  let cmd: Command = { words: [], redirects: [] };
  let word = '';
  let inWord = false;
  let pendingRedirect: string | undefined;
  const heredocs: Array<{ cmd: Command; delim: string; strip: boolean }> = [];

  const endWord = () => {
    if (!inWord) return;
    if (pendingRedirect) {
      if (pendingRedirect === '<<<') cmd.stdin = (cmd.stdin ?? '') + word;
      else if (pendingRedirect.startsWith('<<')) heredocs.push({ cmd, delim: word, strip: pendingRedirect === '<<-' });
      else cmd.redirects.push({ op: pendingRedirect, target: word });
      pendingRedirect = undefined;
    } else cmd.words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (cmd.words.length || cmd.redirects.length || cmd.stdin !== undefined || heredocs.some((h) => h.cmd === cmd))
      pipeline.push(cmd);
    cmd = { words: [], redirects: [] };
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length) pipelines.push(pipeline);
    pipeline = [];
  };

  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    const two = src.slice(i, i + 2);
    if (c === '\\') {
      if (src[i + 1] !== '\n') ((word += src[i + 1] ?? ''), (inWord = true));
      i += 2;
    } else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      word += src.slice(i + 1, end < 0 ? src.length : end);
      inWord = true;
      i = end < 0 ? src.length : end + 1;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < src.length && src[i] !== '"'; i++) {
        if (src[i] === '\\' && /["\\$`]/.test(src[i + 1] ?? '')) word += src[++i];
        else if (src.startsWith('$(', i)) {
          const end = closeParen(src, i + 1);
          substitute(src.slice(i + 2, end - 1));
          word += src.slice(i, end);
          i = end - 1;
        } else word += src[i];
      }
      i++;
    } else if (two === '$(' || ((c === '<' || c === '>') && src[i + 1] === '(')) {
      const end = closeParen(src, i + 1);
      if (c === '$') substitute(src.slice(i + 2, end - 1));
      else substitutions.push(src.slice(i + 2, end - 1));
      word += src.slice(i, end);
      inWord = true;
      i = end;
    } else if (c === '`') {
      const end = src.indexOf('`', i + 1);
      substitutions.push(src.slice(i + 1, end < 0 ? src.length : end));
      word += src.slice(i, end < 0 ? src.length : end + 1);
      inWord = true;
      i = end < 0 ? src.length : end + 1;
    } else if (c === '#' && !inWord) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '\n') {
      endPipeline();
      i++;
      // Here-documents start on the line after the operator.
      for (const h of heredocs.splice(0)) {
        const lines: string[] = [];
        while (i < src.length) {
          const nl = src.indexOf('\n', i);
          const line = src.slice(i, nl < 0 ? src.length : nl);
          i = nl < 0 ? src.length : nl + 1;
          if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) break;
          lines.push(line);
        }
        h.cmd.stdin = (h.cmd.stdin ?? '') + lines.join('\n');
      }
    } else if (
      two === '&&' ||
      two === '||' ||
      c === ';' ||
      c === '(' ||
      c === ')' ||
      (c === '&' && src[i + 1] !== '>')
    ) {
      endPipeline();
      i += two === '&&' || two === '||' ? 2 : 1;
    } else if (c === '|') {
      endCommand();
      i += two === '|&' ? 2 : 1;
    } else if (c === '>' || c === '<' || two === '&>') {
      // A file descriptor number right before the operator belongs to it (`2>`), not to the words.
      if (inWord && /^\d+$/.test(word)) ((word = ''), (inWord = false));
      else endWord();
      const op = /^(?:<<<|<<-|<<|<>|>>|>\||>&|<&|&>>|&>|>|<)/.exec(src.slice(i))![0];
      i += op.length;
      if ((op === '>&' || op === '<&') && /^[\d-]/.test(src[i] ?? '')) {
        while (/[\d-]/.test(src[i] ?? '')) i++;
        continue;
      }
      pendingRedirect = op;
    } else if (c === ' ' || c === '\t') {
      endWord();
      i++;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  endPipeline();
  return { pipelines, substitutions };
}

/** Wrappers that run the command that follows them: `sudo rm -rf /` is judged as `rm -rf /`. */
const WRAPPERS: Record<string, RegExp | null> = {
  sudo: /^-(?:[ugCDhprt]|-user|-group)$/,
  doas: /^-u$/,
  env: /^-(?:u|-unset|C|-chdir|S|P)$/,
  nohup: null,
  time: null,
  command: null,
  builtin: null,
  exec: null,
  nice: /^-n$/,
  ionice: /^-[cn]$/,
  stdbuf: null,
  timeout: /^-[sk]$/,
  watch: /^-[nd]$/,
  busybox: null,
  chronic: null,
  unbuffer: null,
};
/** Shell keywords that may stand before a command: `if rm -rf /; then`, `for x in y; do rm -rf ~; done`. */
const KEYWORDS = new Set(['{', '!', 'if', 'then', 'else', 'elif', 'do', 'while', 'until']);

/** The command's words without leading `VAR=value` assignments and wrappers such as sudo, env, nohup, timeout. */
export function unwrap(words: string[]): string[] {
  let w = words.slice();
  for (let guard = 0; guard < 10; guard++) {
    while (w.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0]!)) w = w.slice(1);
    while (w.length && KEYWORDS.has(w[0]!)) w = w.slice(1);
    const name = base(w[0] ?? '');
    if (!(name in WRAPPERS)) return w;
    const valued = WRAPPERS[name];
    let j = 1;
    while (j < w.length && (w[j]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[j]!)))
      j += valued?.test(w[j]!) ? 2 : 1;
    if (name === 'timeout' && /^\d/.test(w[j] ?? '')) j++; // the duration
    w = w.slice(j);
  }
  return w;
}

/** `/usr/bin/rm` → `rm`. */
export const base = (word: string) => word.slice(word.lastIndexOf('/') + 1);
