/**
 * The shell guard's words: a word of a command as sh would expand it (`~`, `$HOME`, variables the command set, `for`
 * loop values, `$(whoami)`), the path it names from the folder the command runs in, and which control path a text
 * names. The state a command carries from one simple command to the next (its folder and variables) and the context
 * of one judgement are defined here; the walk over the command is shell-writes.ts.
 */
import { basename, isAbsolute, resolve } from 'node:path';
import { homedir, nodeOs } from '../os/home.ts';
import { mentionedBareName, mentionedControlName, type ControlTable, type Fold } from './control-paths.ts';
import type { EnvWrites } from './shell-env.ts';
import { joined, type Arg } from './shell-commands.ts';
import { expandMarked, markUnquoted, markValue } from './shell-expand.ts';
import { lex, literalText, type Token, type Word } from './shell-lex.ts';

export interface State {
  /** The folder commands run in; undefined after a `cd` the guard could not resolve. */
  cwd: string | undefined;
  vars: Map<string, string | undefined>;
}

export interface Context {
  env: NodeJS.ProcessEnv;
  table: ControlTable;
  fold: Fold;
  /** The whole command as the agent sent it (for "names a control path"). */
  command: string;
  /** The values a `for NAME in …` loop gives NAME, when the guard knows each one. */
  loops: Map<string, string[]>;
  /** `.env` files the command writes, and what it may write there (judged by content after the walk). */
  envWrites: EnvWrites;
  /** Reads a script the command runs (`$(…)`, `bash -c`, `eval`) as the guard reads the whole command. */
  walk: (script: string, st: State, depth: number) => void;
}

/** At most this many spellings of one word are judged (a word with several loop variables multiplies them). */
const MAX_SPELLINGS = 64;

/**
 * The control path `text` names: a control folder or binary anywhere, a bare file name (`settings.json`) only where
 * the command runs beside control files, or somewhere the guard could not follow (`cd "$X"`).
 */
export function named(text: string, st: State, ctx: Context): string | undefined {
  const strict = mentionedControlName(text);
  if (strict) return strict;
  const bare = mentionedBareName(text);
  if (!bare || (st.cwd !== undefined && !ctx.table.holds(ctx.fold(st.cwd)))) return undefined;
  return bare;
}

/**
 * `avp` (a word naming avp's binary by its bare name) in a folder the guard lost track of (`cd "$(dirname …)"`): it
 * may be the binary the hooks run. Only a target word counts, not the whole command (`avp list > out.txt` runs it).
 */
export function binaryWhereLost(word: string, st: State): string | undefined {
  return st.cwd === undefined && /^avp(?:\.exe)?$/i.test(basename(word.replace(/[/\\]+$/, ''))) ? 'avp' : undefined;
}

export function home(ctx: Context): string {
  return ctx.env.HOME || homedir();
}

/** What `$(whoami)`, `$(id -u)`, `$(id -un)`, `$(id -g)` print: the shell runs as the user the hook runs as. */
function identity(script: string): string | undefined {
  const cmd = script.trim().replace(/\s+/g, ' ');
  if (!/^(?:whoami|id -un|id -nu|id -u|id -g)$/.test(cmd)) return undefined;
  const me = nodeOs().userInfo();
  return cmd === 'id -u' ? String(me.uid) : cmd === 'id -g' ? String(me.gid) : me.username;
}

/**
 * True when `name` is unset in the shell as far as the guard can tell: absent from the agent's environment (the
 * shell starts from it) and never given a value anywhere in the command (`X=…`, `for X`, `read X`, `printf -v X`,
 * `eval "X=…"` — any mention of the bare name counts).
 */
function unsetInShell(name: string, st: State, ctx: Context): boolean {
  if (ctx.env[name] !== undefined || st.vars.has(name)) return false;
  return !new RegExp(`(?<![\\w$])(?<!\\$\\{)${name}(?!\\w)`).test(ctx.command);
}

/**
 * A word as sh would expand it, when the guard can know that (`~`, `$HOME`, variables set earlier), then its braces
 * and globs: one word can become several. A word the guard cannot know carries what sh makes of it when its only
 * unknowns are variables unset in the shell (`sh`): empty, or their `${X:-word}` word.
 */
export function expand(word: Word, st: State, ctx: Context, depth: number): Arg[] {
  let text = '';
  let exact = true;
  // What sh makes of the word with unset variables as sh expands them, one spelling per loop value; undefined once
  // anything else is unknown.
  let sh: string[] | undefined = [''];
  const add = (v: string) => {
    text += v;
    sh = sh?.map((x) => x + v);
  };
  for (const p of word.parts) {
    if (p.kind === 'lit') add(p.quoted ? p.text : markUnquoted(p.text));
    else if (p.kind === 'tilde') {
      if (!p.user) add(home(ctx));
      else [exact, sh] = [false, undefined];
    } else if (p.kind === 'sub') {
      ctx.walk(p.script, { ...st }, depth + 1);
      const id = identity(p.script);
      if (id !== undefined) add(id);
      else [exact, sh] = [false, undefined];
    } else if (p.name === 'PWD') {
      // The shell always sets PWD: the folder the command is in, unknown once the guard lost track of it.
      if (st.cwd) add(st.cwd);
      else [exact, sh] = [false, undefined];
    } else if (p.name && st.vars.has(p.name)) {
      const v = st.vars.get(p.name);
      const loop = ctx.loops.get(p.name);
      if (v !== undefined) add(p.quoted ? v : markValue(v));
      else if (loop && sh && sh.length * loop.length <= MAX_SPELLINGS) {
        exact = false;
        sh = sh.flatMap((x) => loop.map((l) => x + l));
      } else [exact, sh] = [false, undefined];
    } else if (p.name && ctx.env[p.name] !== undefined && !(p.fallback !== undefined && ctx.env[p.name] === ''))
      add(p.quoted ? ctx.env[p.name]! : markValue(ctx.env[p.name]!));
    else {
      exact = false;
      if (!p.name || !unsetInShell(p.name, st, ctx)) sh = undefined;
      else if (sh !== undefined && p.fallback) {
        const fallback = fallbackText(p.fallback, st, ctx, depth);
        sh = fallback === undefined ? undefined : sh.map((x) => x + fallback);
      }
    }
  }
  const literal = literalText(word);
  if (!exact) {
    const shown = expandMarked(text, undefined)[0]?.text ?? '';
    const known = sh?.flatMap((x) => expandMarked(x, st.cwd));
    const arg: Arg = { text: shown, exact: false, literal };
    return [known && known.every((k) => k.exact) ? { ...arg, sh: known.map((k) => k.text) } : arg];
  }
  return expandMarked(text, st.cwd).map((w) => ({ ...w, literal }));
}

/** The word of `${X:-word}` as sh expands it (`$HOME/.cache`), or undefined when the guard cannot know it. */
function fallbackText(raw: string, st: State, ctx: Context, depth: number): string | undefined {
  let tokens: Token[];
  try {
    tokens = lex(raw);
  } catch {
    return undefined;
  }
  const [first, ...more] = tokens;
  if (!first || first.type !== 'word' || more.length) return raw === '' ? '' : undefined;
  const a = expandOne(first.word, st, ctx, depth);
  return a.exact ? a.text : undefined;
}

/** A word as one value (an assignment, a here-string): braces and globs do not apply there. */
export function expandOne(word: Word, st: State, ctx: Context, depth: number): Arg {
  const [first] = expand(
    { parts: word.parts.map((p) => (p.kind === 'lit' || p.kind === 'var' ? { ...p, quoted: true } : p)) },
    st,
    ctx,
    depth,
  );
  return first ?? { text: '', exact: true, literal: '' };
}

export function pathOf(a: Arg, st: State): string | undefined {
  if (!a.exact) return undefined;
  if (isAbsolute(a.text)) return a.text;
  return st.cwd === undefined ? undefined : resolve(st.cwd, a.text);
}

/** `…/avp` at the end of a path: the name of avp's binary, and of many a folder (a project or temp folder). */
const BINARY_NAME = /[/\\]avp(?:\.exe)?(?=$|[\s'"`;|&)<>])/gi;

/** The control path `text` names, leaving out the binary's bare name. */
export function namedBesidesBinary(text: string, st: State, ctx: Context): string | undefined {
  return named(text.replace(BINARY_NAME, ' '), st, ctx);
}

/** Where `a` (with `into`'s name added) leads when sh expands it: exact, or through unset variables; else undefined. */
export function shPaths(a: Arg, st: State, into?: Arg): string[] | undefined {
  const texts = (x: Arg) => (x.exact ? [x.text] : x.sh);
  // An empty word names no file (`rm -rf "$UNSET"` removes nothing).
  const dirs = texts(a)
    ?.filter((t) => t !== '')
    .map((t) => pathOf({ ...a, text: t, exact: true }, st));
  const names = into ? texts(into) : [undefined];
  if (!dirs || !names || dirs.some((d) => d === undefined)) return undefined;
  return dirs.flatMap((d) => names.map((n) => (n === undefined ? d! : joined(d!, n))));
}
