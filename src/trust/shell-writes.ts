/**
 * The guard's judgement of a shell command before it runs: does it write, move, truncate, delete, re-link or re-mode
 * one of avp's control paths (control-paths.ts)? The command is read as sh reads it (shell-lex.ts): lists and
 * pipelines, subshells, redirections, `cd` (the folder each later command runs in), variables it sets, `$(…)`,
 * `bash -c` / `eval` (read again, recursively), wrappers (`sudo`, `env`, `xargs` …), and each file-changing
 * command's targets (shell-commands.ts). Reads pass. What cannot be resolved (an unknown variable, a folder from
 * `$(…)`, interpreter code) is refused only when the command names a control path: that is "cannot be shown harmless".
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { homedir, nodeOs } from '../os/home.ts';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { mentionedBareName, mentionedControlName, type ControlTable, type Fold } from './control-paths.ts';
import { EnvWrites } from './shell-env.ts';
import { commandWrites, gitWrites, joined, READERS, WRAPPER_OPTS, type Arg } from './shell-commands.ts';
import { expandMarked, markUnquoted } from './shell-expand.ts';
import { lex, literalText, ShellSyntaxError, type Redirect, type Token, type Word } from './shell-lex.ts';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);
const INTERPRETERS =
  /^(?:python[\d.]*|pypy[\d.]*|node|nodejs|bun|bunx|deno|perl|ruby|php|lua[\d.]*|luajit|Rscript|osascript|awk|gawk|mawk|nawk|tclsh|pwsh|powershell|jshell|groovy|julia)$/;
/** How deep `bash -c` / `eval` / `$(…)` nesting is read before the rest is judged by name alone. */
const MAX_DEPTH = 6;

interface State {
  /** The folder commands run in; undefined after a `cd` the guard could not resolve. */
  cwd: string | undefined;
  vars: Map<string, string | undefined>;
}

interface Context {
  env: NodeJS.ProcessEnv;
  table: ControlTable;
  fold: Fold;
  /** The whole command as the agent sent it (for "names a control path"). */
  command: string;
  /** The values a `for NAME in …` loop gives NAME, when the guard knows each one. */
  loops: Map<string, string[]>;
  /** `.env` files the command writes, and what it may write there (judged by content after the walk). */
  envWrites: EnvWrites;
}

/** At most this many spellings of one word are judged (a word with several loop variables multiplies them). */
const MAX_SPELLINGS = 64;

class Refusal extends Error {}
/** A command that would hide later edits from avp's change tracking (no control path involved). */
class HidingRefusal extends Refusal {}

/**
 * The control path `text` names: a control folder or binary anywhere, a bare file name (`settings.json`) only where
 * the command runs beside control files, or somewhere the guard could not follow (`cd "$X"`).
 */
function named(text: string, st: State, ctx: Context): string | undefined {
  const strict = mentionedControlName(text);
  if (strict) return strict;
  const bare = mentionedBareName(text);
  if (!bare || (st.cwd !== undefined && !ctx.table.holds(ctx.fold(st.cwd)))) return undefined;
  return bare;
}

function home(ctx: Context): string {
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
function expand(word: Word, st: State, ctx: Context, depth: number): Arg[] {
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
      walk(p.script, { ...st }, ctx, depth + 1);
      const id = identity(p.script);
      if (id !== undefined) add(id);
      else [exact, sh] = [false, undefined];
    } else if (p.name === 'PWD' && st.cwd) add(st.cwd);
    else if (p.name && st.vars.has(p.name)) {
      const v = st.vars.get(p.name);
      const loop = ctx.loops.get(p.name);
      if (v !== undefined) add(v);
      else if (loop && sh && sh.length * loop.length <= MAX_SPELLINGS) {
        exact = false;
        sh = sh.flatMap((x) => loop.map((l) => x + l));
      } else [exact, sh] = [false, undefined];
    } else if (p.name && ctx.env[p.name] !== undefined && !(p.fallback !== undefined && ctx.env[p.name] === ''))
      add(ctx.env[p.name]!);
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
function expandOne(word: Word, st: State, ctx: Context, depth: number): Arg {
  const [first] = expand(
    { parts: word.parts.map((p) => (p.kind === 'lit' ? { ...p, quoted: true } : p)) },
    st,
    ctx,
    depth,
  );
  return first ?? { text: '', exact: true, literal: '' };
}

function pathOf(a: Arg, st: State): string | undefined {
  if (!a.exact) return undefined;
  if (isAbsolute(a.text)) return a.text;
  return st.cwd === undefined ? undefined : resolve(st.cwd, a.text);
}

/** `…/avp` at the end of a path: the name of avp's binary, and of many a folder (a project or temp folder). */
const BINARY_NAME = /[/\\]avp(?:\.exe)?(?=$|[\s'"`;|&)<>])/gi;

/** The control path `text` names, leaving out the binary's bare name. */
function namedBesidesBinary(text: string, st: State, ctx: Context): string | undefined {
  return named(text.replace(BINARY_NAME, ' '), st, ctx);
}

/** Where `a` (with `into`'s name added) leads when sh expands it: exact, or through unset variables; else undefined. */
function shPaths(a: Arg, st: State, into?: Arg): string[] | undefined {
  const texts = (x: Arg) => (x.exact ? [x.text] : x.sh);
  // An empty word names no file (`rm -rf "$UNSET"` removes nothing).
  const dirs = texts(a)
    ?.filter((t) => t !== '')
    .map((t) => pathOf({ ...a, text: t, exact: true }, st));
  const names = into ? texts(into) : [undefined];
  if (!dirs || !names || dirs.some((d) => d === undefined)) return undefined;
  return dirs.flatMap((d) => names.map((n) => (n === undefined ? d! : joined(d!, n))));
}

/**
 * Why copying folder `source`'s contents into folder `landing` (folded) reaches a control path: the source holds an
 * entry at a control path's name there, or a non-folder on its way (which would replace the folder holding it).
 */
function contentsReach(landing: string, source: string, ctx: Context): string | undefined {
  for (const c of ctx.table.within(landing)) {
    const rel = relative(landing, c);
    if (!rel) return ctx.table.check(c, false);
    let at = source;
    for (const [k, part] of rel.split(sep).entries()) {
      at = join(at, part);
      let folder: boolean;
      try {
        folder = lstatSync(at).isDirectory();
      } catch {
        break;
      }
      if (!folder || k === rel.split(sep).length - 1)
        return `${source} holds ${rel}, copied over ${c}: ${ctx.table.check(c, false) ?? 'a control path'}`;
    }
  }
  return undefined;
}

/** Refuses when `path` is a control path (or a hard link to one); `from`: only that folder's contents land there. */
function refuseAt(path: string, shown: string, ctx: Context, tree: boolean, what: string, from?: string): void {
  if (/^\/dev\/(?:null|std(?:out|err)|tty|fd\/\d+)$/.test(path)) return;
  ctx.envWrites.target(shown, path);
  const folded = ctx.fold(path);
  const why =
    from !== undefined
      ? (ctx.table.check(folded, false) ?? contentsReach(folded, from, ctx))
      : (ctx.table.check(folded, tree) ?? (links(folded) > 1 ? ctx.table.sameFile(folded) : undefined));
  if (why) throw new Refusal(`it ${what} ${shown}: ${why}`);
}

/** Refuses when `path` is a control path; when it cannot be resolved, when the command names one. */
function judge(a: Arg, st: State, ctx: Context, tree: boolean, what: string, into?: Arg, from?: Arg): void {
  const shown = into ? `${a.literal}/${basename(into.literal)}` : a.literal;
  const dir = pathOf(a, st);
  const source = into && (into.exact ? into.text : undefined);
  if (dir !== undefined && (!into || source !== undefined)) {
    const contents = from && pathOf(from, st);
    refuseAt(into ? joined(dir, source!) : dir, shown, ctx, tree, what, contents && realOrSelf(contents));
    return;
  }
  ctx.envWrites.target(into ? `${a.literal}/${into.literal}` : a.literal);
  // Unknown only through variables unset in the shell: judged where sh takes it (`$TMPDIR/avp` with TMPDIR unset is
  // `/avp`, a control path only when avp is installed there). The word naming a control folder is still refused.
  const known = shPaths(a, st, into);
  if (known) {
    for (const path of known) refuseAt(path, shown, ctx, tree, what);
    const name = namedBesidesBinary(`${a.literal} ${into?.literal ?? ''}`, st, ctx);
    if (name)
      throw new Refusal(`it ${what} a path the guard cannot resolve before it runs (${a.literal}), naming ${name}`);
    return;
  }
  const name = named(`${a.literal} ${into?.literal ?? ''}`, st, ctx) ?? named(ctx.command, st, ctx);
  if (name)
    throw new Refusal(
      `it ${what} a path the guard cannot resolve before it runs (${a.literal}), in a command naming ${name}`,
    );
}

/** `path` with its symlinks followed (a source folder is read where it really is). */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** How many names the file at `path` has (a hard link made earlier writes the control file under another name). */
function links(path: string): number {
  try {
    return lstatSync(path).nlink;
  } catch {
    return 0;
  }
}

function redirects(list: Redirect[], st: State, ctx: Context, depth: number): void {
  for (const r of list) {
    if (r.op === '<<' || r.op === '<<-') continue; // the delimiter word, not a file
    for (const target of expand(r.target, st, ctx, depth)) {
      if (/^(?:>|>>|>\||&>|&>>|<>)$/.test(r.op)) judge(target, st, ctx, false, 'writes');
      else if (r.op === '>&' && !/^(?:\d+|-)$/.test(target.text)) judge(target, st, ctx, false, 'writes');
    }
  }
}

/** Code run by a shell or interpreter from text the guard sees: read again (shells) or searched for names. */
function code(shell: boolean, text: string, st: State, ctx: Context, depth: number, who: string): void {
  if (shell) {
    walk(text, { ...st, vars: new Map(st.vars) }, ctx, depth + 1);
    return;
  }
  const name = named(text, st, ctx);
  if (name) throw new Refusal(`its ${who} code names ${name}, and code can write it`);
  // Code that names a `.env` file may write it: judged by what the command carries (shell-env.ts).
  const env = /(?:^|[^\w.-])(\S*\.env)(?![\w.-])/.exec(text);
  if (env) ctx.envWrites.target(`${env[1]} (from ${who} code)`, undefined, true);
}

/** One simple command: its words (expanded), its redirections, and what its command name does with them. */
function simple(words: Word[], redirs: Redirect[], st: State, ctx: Context, depth: number): void {
  redirects(redirs, st, ctx, depth);
  // `NAME=value` before a command sets it for that command; alone, for the rest of the script.
  let assigned = 0;
  while (assigned < words.length && /^[A-Za-z_]\w*=/.test(literalText(words[assigned]!))) assigned++;
  const sets = words.slice(0, assigned).map((w) => {
    const a = expandOne(w, st, ctx, depth);
    const eq = a.text.indexOf('=');
    return [a.literal.slice(0, a.literal.indexOf('=')), a.exact ? a.text.slice(eq + 1) : undefined] as const;
  });
  const args = words.slice(assigned).flatMap((w) => expand(w, st, ctx, depth));
  for (const a of args) if (a.exact) ctx.envWrites.word(a.text, pathOf(a, st));
  if (!args.length) {
    for (const [k, v] of sets) st.vars.set(k, v);
    return;
  }
  command(args, redirs, st, ctx, depth);
}

function command(args: Arg[], redirs: Redirect[], st: State, ctx: Context, depth: number): void {
  const [head, ...rest] = args;
  if (!head) return;
  if (!head.exact) {
    // A command name the guard cannot know (`$CMD`, `$(echo rm)`): harmless only when nothing names a control path.
    for (const a of rest) judgeUnknown(a, st, ctx, `runs an unknown command (${head.literal}) on`);
    return;
  }
  const name = basename(head.text);
  if (['{', '}', '!', 'if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', 'esac'].includes(name))
    return command(rest, redirs, st, ctx, depth);
  if (name === 'for' || name === 'select') {
    // `for f in a b; do … "$f" …`: f is unknown to what follows, but each of its values is judged where it is used.
    const [v, kw, ...values] = rest;
    if (v && /^[A-Za-z_]\w*$/.test(v.text)) {
      st.vars.set(v.text, undefined);
      if (kw?.text === 'in' && values.every((x) => x.exact))
        ctx.loops.set(
          v.text,
          values.map((x) => x.text),
        );
      else ctx.loops.delete(v.text);
    }
    return;
  }
  if (['case', 'function', 'in'].includes(name)) return;
  if (name === 'cd' || name === 'pushd') {
    const to = rest.find((a) => !a.text.startsWith('-') || a.text === '-');
    const path = to === undefined ? home(ctx) : to.text === '-' ? undefined : pathOf(to, st);
    st.cwd = path;
    return;
  }
  if (['export', 'declare', 'typeset', 'local', 'readonly'].includes(name)) {
    for (const a of rest) {
      const eq = a.literal.indexOf('=');
      if (eq > 0) st.vars.set(a.literal.slice(0, eq), a.exact ? a.text.slice(a.text.indexOf('=') + 1) : undefined);
    }
    return;
  }
  if (name === 'read' || name === 'mapfile' || name === 'readarray') {
    for (const a of rest) if (/^[A-Za-z_]\w*$/.test(a.text)) st.vars.set(a.text, undefined);
    return;
  }
  if (name === 'eval') return code(true, rest.map((a) => a.text).join(' '), st, ctx, depth, 'eval');
  if (name in WRAPPER_OPTS) return wrapped(name, rest, redirs, st, ctx, depth);
  if (SHELLS.has(name)) return shell(name, rest, redirs, st, ctx, depth);
  if (INTERPRETERS.test(name)) {
    for (const r of redirs) if (r.body !== undefined) code(false, r.body, st, ctx, depth, name);
    for (const a of rest) code(false, a.literal, st, ctx, depth, name);
  }
  // A patch fed inline (`patch -p1 <<EOF`, `git apply <<EOF`): the files it names are the ones it changes.
  if (name === 'patch' || (name === 'git' && /^(?:apply|am)$/.test(rest[0]?.text ?? ''))) {
    for (const r of redirs) {
      const body = r.body ?? (r.op === '<<<' ? literalText(r.target) : undefined);
      const hit = body === undefined ? undefined : named(body, st, ctx);
      if (hit) throw new Refusal(`its patch names ${hit}`);
      const from = r.op === '<' ? pathOf(expandOne(r.target, st, ctx, depth), st) : undefined;
      ctx.envWrites.patch(body, from);
    }
    for (const a of rest) if (!a.text.startsWith('-') && a.exact) ctx.envWrites.patch(undefined, pathOf(a, st));
  }
  if (name === 'git') {
    const g = gitWrites(rest);
    if (g.hides)
      throw new HidingRefusal(
        `\`git update-index ${g.hides}\` makes git report files unchanged whatever is written to them`,
      );
    const inner = { ...st, cwd: g.cwd ? pathOf(g.cwd, st) : st.cwd };
    for (const w of g.writes) judge(w.arg, inner, ctx, w.tree, `lets git change`);
    return;
  }
  if (name === 'find') return find(rest, st, ctx);
  if ((name === 'sed' || name === 'gsed') && sedScriptNames(rest, st, ctx))
    throw new Refusal(`its sed script names ${sedScriptNames(rest, st, ctx)}, and sed can write files (\`w\`)`);
  if (name === 'avp' && /^(?:deinit|uninstall)$/.test(rest[0]?.text ?? ''))
    throw new Refusal(`\`avp ${rest[0]!.text}\` removes avp's hooks, which only the user does in their own terminal`);
  if (READERS.has(name)) return;
  const isDir = (a: Arg) => {
    const p = pathOf(a, st);
    try {
      return p !== undefined && statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  const writes = commandWrites(name, rest, { isDir });
  if (writes) {
    for (const w of writes) judge(w.arg, st, ctx, w.tree, `${name === 'ln' ? 'links' : 'changes'}`, w.join, w.from);
    return;
  }
  // Any other program: it may write what it is given, so it may not be given a control path.
  for (const a of rest) judgeUnknown(a, st, ctx, `runs ${name} on`);
}

/** The control path a sed script (`-e` values, else the first operand) writes with its `w` command or flag. */
function sedScriptNames(args: Arg[], st: State, ctx: Context): string | undefined {
  const scripts: string[] = [];
  let first: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.literal;
    if (a === '-e' || a === '--expression') scripts.push(args[++i]?.literal ?? '');
    else if (a.startsWith('--expression=')) scripts.push(a.slice(13));
    else if (!a.startsWith('-') && first === undefined) first = a;
  }
  // Only the file names after a `w`/`W` command (or an `s///w` flag) are written: `s/.claude/x/` only edits text.
  const script = (scripts.length ? scripts : [first ?? '']).join('\n');
  for (const m of script.matchAll(/(?:^|[^A-Za-z])[wW]\s*([^;\n}]+)/g)) {
    const hit = named(m[1]!, st, ctx);
    if (hit) return hit;
  }
  return undefined;
}

/** An argument of a program the guard does not know: refused when it is (or, unresolved, names) a control path. */
function judgeUnknown(a: Arg, st: State, ctx: Context, what: string): void {
  const value = a.text.startsWith('-') && a.text.includes('=') ? a.text.slice(a.text.indexOf('=') + 1) : a.text;
  if (a.exact && (value.startsWith('-') || !value)) return;
  if (!a.exact && a.sh) {
    // Unknown only through variables unset in the shell: as `judge` does, where sh takes it.
    for (const t of a.sh) judgeUnknown({ ...a, text: t, exact: true }, st, ctx, what);
    const besides = namedBesidesBinary(a.literal, st, ctx);
    if (besides) throw new Refusal(`it ${what} ${a.literal}, which names ${besides}`);
    return;
  }
  const name = named(a.literal, st, ctx);
  if (!a.exact) {
    ctx.envWrites.target(a.literal);
    if (name) throw new Refusal(`it ${what} ${a.literal}, which names ${name}`);
    return;
  }
  // A word that does not look like a path (`npm test`, `make build`) is not taken for one: resolving the control
  // table costs milliseconds, and a control file is reached by a path or by one of its own names.
  if (!/[/\\]|^[.~]|^avp(?:\.exe)?$/.test(value) && !mentionedBareName(value)) return;
  const path = pathOf({ ...a, text: value }, st);
  ctx.envWrites.target(a.literal, path);
  if (path === undefined) {
    if (name) throw new Refusal(`it ${what} ${a.literal}, which names ${name}`);
    return;
  }
  const why = ctx.table.check(ctx.fold(path), false);
  if (why) throw new Refusal(`it ${what} ${a.literal}: ${why}`);
}

function wrapped(name: string, rest: Arg[], redirs: Redirect[], st: State, ctx: Context, depth: number): void {
  const valued = WRAPPER_OPTS[name]!;
  let i = 0;
  const inner = { ...st };
  for (; i < rest.length; i++) {
    const a = rest[i]!.text;
    if (a === '--') {
      i++;
      break;
    }
    if (name === 'env' && /^[A-Za-z_]\w*=/.test(a)) continue;
    if (name === 'timeout' && /^\d/.test(a)) {
      i++;
      break;
    }
    if (!a.startsWith('-')) break;
    if (name === 'env' && a === '-C') inner.cwd = pathOf(rest[i + 1] ?? rest[i]!, st);
    if (name === 'env' && (a === '-S' || a.startsWith('--split-string')))
      return code(
        true,
        rest
          .slice(i + 1)
          .map((x) => x.text)
          .join(' '),
        st,
        ctx,
        depth,
        'env -S',
      );
    if (valued.test(a)) i++;
  }
  const tail = rest.slice(i);
  if (name === 'xargs') {
    // The arguments come from stdin: whatever the command writes is unknown.
    const cmd = tail[0];
    if (!cmd) return;
    const unknown: Arg = { text: '', exact: false, literal: '(arguments from stdin)' };
    return command([...tail, unknown], [], inner, ctx, depth);
  }
  if (name === 'watch') return code(true, tail.map((a) => a.text).join(' '), inner, ctx, depth, 'watch');
  command(tail, redirs, inner, ctx, depth);
}

function shell(name: string, rest: Arg[], redirs: Redirect[], st: State, ctx: Context, depth: number): void {
  const c = rest.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a.text));
  if (c >= 0 && rest[c + 1]) return code(true, rest[c + 1]!.text, st, ctx, depth, name);
  const body = redirs.find((r) => r.body !== undefined)?.body;
  if (body !== undefined) return code(true, body, st, ctx, depth, name);
  const here = redirs.find((r) => r.op === '<<<');
  if (here) return code(true, expandOne(here.target, st, ctx, depth).text, st, ctx, depth, name);
  // A script file or stdin from a pipe: the guard cannot see it, so it must not name a control path.
  const names = named(ctx.command, st, ctx);
  if (names) throw new Refusal(`it runs ${name} on a script the guard cannot read, in a command naming ${names}`);
  for (const a of rest) judgeUnknown(a, st, ctx, `runs ${name} on`);
}

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
function find(rest: Arg[], st: State, ctx: Context): void {
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

/** Reads `script` as sh would and refuses (throws Refusal) at the first change to a control path. */
function walk(script: string, st: State, ctx: Context, depth: number): void {
  if (depth > MAX_DEPTH) {
    const name = named(script, st, ctx);
    if (name) throw new Refusal(`it nests commands too deep to read, and names ${name}`);
    return;
  }
  let tokens: Token[];
  try {
    tokens = lex(script);
  } catch (e) {
    if (!(e instanceof ShellSyntaxError)) throw e;
    const name = named(script, st, ctx);
    if (name) throw new Refusal(`it cannot be read as a shell command (${e.message}) and names ${name}`);
    return;
  }
  const saved: State[] = [];
  let words: Word[] = [];
  let redirs: Redirect[] = [];
  const flush = () => {
    if (words.length || redirs.length) simple(words, redirs, st, ctx, depth);
    words = [];
    redirs = [];
  };
  for (const t of tokens) {
    if (t.type === 'word') words.push(t.word);
    else if (t.type === 'redir') redirs.push(t.redir);
    else {
      flush();
      // A subshell's `cd` and variables end with it.
      if (t.op === '(') saved.push({ cwd: st.cwd, vars: new Map(st.vars) });
      if (t.op === ')') Object.assign(st, saved.pop() ?? st);
    }
  }
  flush();
}

/**
 * Why the guard refuses shell command `command` run in `cwd`, or undefined when it changes no control path as far as
 * can be shown (reads, writes elsewhere, commands that name no control path).
 */
export function shellWriteDenial(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  table: ControlTable,
  fold: Fold,
): string | undefined {
  return shellDenial(command, cwd, env, table, fold)?.why;
}

/**
 * `shellWriteDenial` with what was refused: a control path, or (`env: true`) a `.env` file the agents read, written
 * with a line that switches their hooks or avp off (shell-env.ts), or (`hides: true`) files marked so that git, and
 * so avp, no longer sees their edits.
 */
export function shellDenial(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  table: ControlTable,
  fold: Fold,
): { why: string; env: boolean; hides?: boolean } | undefined {
  const envWrites = new EnvWrites();
  try {
    walk(command, { cwd, vars: new Map() }, { env, table, fold, command, loops: new Map(), envWrites }, 0);
  } catch (e) {
    if (e instanceof HidingRefusal) return { why: e.message, env: false, hides: true };
    if (e instanceof Refusal) return { why: e.message, env: false };
    throw e;
  }
  const why = envWrites.verdict(command);
  return why ? { why, env: true } : undefined;
}

/** PowerShell commands that only read or print (`Get-Content x | ConvertFrom-Json`). */
const PS_READERS =
  /^(?:Get-Content|gc|cat|type|Select-String|sls|Test-Path|Get-ChildItem|gci|ls|dir|Get-Item|gi|Resolve-Path|ConvertFrom-Json|ConvertTo-Json|Measure-Object|Write-Output|Write-Host|echo|Format-\w+|Out-String|Out-Host|Where-Object|Select-Object|ForEach-Object|Sort-Object|\?|%)$/i;

/**
 * The guard's judgement of a PowerShell command (Copilot's `powershell` tool): it is not read as sh reads it, so a
 * command naming a control path is refused unless every statement of it is a reader with no redirection.
 */
export function powershellWriteDenial(command: string): string | undefined {
  const text = command.replaceAll('\\', '/');
  const name = mentionedControlName(text) ?? mentionedBareName(text);
  if (!name) return undefined;
  const statements = text.split(/;|\||\n|&&|\|\|/).map((s) => s.trim().split(/\s+/)[0] ?? '');
  if (!/>/.test(text) && statements.every((s) => !s || PS_READERS.test(s))) return undefined;
  return `it is a PowerShell command naming ${name} that does not only read it`;
}
