/**
 * What one command does with its words, by its name: shell keywords, `cd`, variables, `eval`, wrappers (`sudo`, `env`,
 * `xargs` …), shells and interpreters (their code read again or searched for names), patches, git, find, sed, avp's
 * own removal, readers, and the file-changing commands of shell-commands.ts; any other program may not be given a
 * control path.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { commandWrites, gitWrites, READERS, WRAPPER_OPTS, type Arg } from './shell-commands.ts';
import { find } from './shell-find.ts';
import { literalText, type Redirect } from './shell-lex.ts';
import { HidingRefusal, judge, judgeUnknown, Refusal } from './shell-targets.ts';
import { expandOne, home, named, pathOf, type Context, type State } from './shell-words.ts';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);

const INTERPRETERS =
  /^(?:python[\d.]*|pypy[\d.]*|node|nodejs|bun|bunx|deno|perl|ruby|php|lua[\d.]*|luajit|Rscript|osascript|awk|gawk|mawk|nawk|tclsh|pwsh|powershell|jshell|groovy|julia)$/;

/** Code run by a shell or interpreter from text the guard sees: read again (shells) or searched for names. */
function code(shell: boolean, text: string, st: State, ctx: Context, depth: number, who: string): void {
  if (shell) {
    ctx.walk(text, { ...st, vars: new Map(st.vars) }, depth + 1);
    return;
  }
  const name = named(text, st, ctx);
  if (name) throw new Refusal(`its ${who} code names ${name}, and code can write it`);
  // Code that names a `.env` file may write it: judged by what the command carries (shell-env.ts).
  const env = /(?:^|[^\w.-])(\S*\.env)(?![\w.-])/.exec(text);
  if (env) ctx.envWrites.target(`${env[1]} (from ${who} code)`, undefined, true);
}

export function command(args: Arg[], redirs: Redirect[], st: State, ctx: Context, depth: number): void {
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
  // `function f { rm …; }`: the body follows the name on the same simple command, and runs when f is called.
  if (name === 'function') return command(rest.slice(1), redirs, st, ctx, depth);
  if (name === 'case' || name === 'in') return;
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
    if (name === 'env' && (a === '-S' || a.startsWith('--split-string'))) {
      // `--split-string='rm …'` carries its script in the same word; `-S 'rm …'` in the words after it.
      const glued = a.startsWith('--split-string=') ? [a.slice('--split-string='.length)] : [];
      const script = [...glued, ...rest.slice(i + 1).map((x) => x.text)].join(' ');
      return code(true, script, st, ctx, depth, 'env -S');
    }
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
