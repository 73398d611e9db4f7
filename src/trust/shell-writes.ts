/**
 * The guard's judgement of a shell command before it runs: does it write, move, truncate, delete, re-link or re-mode
 * one of avp's control paths (control-paths.ts)? The command is read as sh reads it (shell-lex.ts): lists and
 * pipelines, subshells, redirections, `cd` (the folder each later command runs in), variables it sets, `$(…)`,
 * `bash -c` / `eval` (read again, recursively), wrappers (`sudo`, `env`, `xargs` …), and each file-changing
 * command's targets (shell-commands.ts). Reads pass. What cannot be resolved (an unknown variable, a folder from
 * `$(…)`, interpreter code) is refused only when the command names a control path: that is "cannot be shown harmless".
 */
import { mentionedBareName, mentionedControlName, type ControlTable, type Fold } from './control-paths.ts';
import { EnvWrites } from './shell-env.ts';
import { command } from './shell-programs.ts';
import { lex, literalText, ShellSyntaxError, type Redirect, type Token, type Word } from './shell-lex.ts';
import { HidingRefusal, judge, Refusal } from './shell-targets.ts';
import { expand, expandOne, named, pathOf, type Context, type State } from './shell-words.ts';

/** How deep `bash -c` / `eval` / `$(…)` nesting is read before the rest is judged by name alone. */
const MAX_DEPTH = 6;

function redirects(list: Redirect[], st: State, ctx: Context, depth: number): void {
  for (const r of list) {
    if (r.op === '<<' || r.op === '<<-') continue; // the delimiter word, not a file
    for (const target of expand(r.target, st, ctx, depth)) {
      if (/^(?:>|>>|>\||&>|&>>|<>)$/.test(r.op)) judge(target, st, ctx, false, 'writes');
      else if (r.op === '>&' && !/^(?:\d+|-)$/.test(target.text)) judge(target, st, ctx, false, 'writes');
    }
  }
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
    const loops = new Map<string, string[]>();
    const ctx: Context = { env, table, fold, command, loops, envWrites, walk: (s, st, d) => walk(s, st, ctx, d) };
    walk(command, { cwd, vars: new Map() }, ctx, 0);
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
