#!/usr/bin/env bun
/**
 * dangerous-commands — avp catalog script judge (self-contained: Bun/Node built-ins and the files of this folder).
 *
 * PreToolUse on Bash: reads `toolInput.command`, parses it (./shell.ts), resolves its path arguments (./paths.ts) and
 * denies commands that destroy data, shared work or the machine before they run. Text that is only data (`echo "rm
 * -rf /"`, a commit message) is not a command and is not flagged; text handed to a shell or an interpreter (`sh -c`,
 * `eval`, `bash <<EOF`, `$(…)`, `python -c`, `xargs`, `find -exec`) is. Rules: ../references/rules.md.
 * Options (environment): AVP_DANGEROUS_COMMANDS_ALLOW turns rules or checks off, AVP_DANGEROUS_COMMANDS_DENY turns
 * opt-in checks on (both comma-separated ids).
 */
import { type Ctx, type Finding, finding, flagsOf } from './context.ts';
import {
  checkDisk,
  checkFind,
  checkMachine,
  checkMv,
  checkPermissions,
  checkRm,
  checkShred,
  checkSystemFiles,
} from './files.ts';
import { checkGit } from './git.ts';
import { checkDatabase, checkInfra } from './infra.ts';
import { cdTarget, type Place } from './paths.ts';
import { checkCode, checkPipeline, checkReverseShell, inlineCode, runsStdin, SHELLS } from './remote.ts';
import { base, parseShell, unwrap, type Command } from './shell.ts';

/** The home folder as node:os gives it (HOME when set), without loading node:os on every call (~0.3 ms). */
const homeDir = () => process.env.HOME || process.getBuiltinModule('node:os').homedir();

interface HookEvent {
  tool?: string;
  toolInput?: Record<string, unknown>;
  projectRoot?: string;
  cwd?: string;
}
interface Violation {
  rule: string;
  snippet?: string;
  suggestion?: string;
  message?: string;
}
export interface Verdict {
  passed: boolean;
  violations: Violation[];
  summary: string;
}

// Name length is bounded so a long word cannot make the backtracking quadratic.
const FORK_BOMB = /([A-Za-z_:][\w:]{0,40})\s*\(\)\s*\{[^}]{0,200}?\1\s*\|\s*\1\s*&[^}]{0,200}\}\s*;?\s*\1/;
const TOO_DEEP = finding(
  'too-deep',
  'too-deep',
  'the command nests eval, sh -c, substitutions or interpreters more than 8 levels deep, too deep to judge',
  'Run the inner command directly.',
);
/** xargs options that take a value (`xargs -I{} -n 1 rm`). */
const XARGS_VALUED = /^-(?:[IiLlnPsdEaJj]|-max-args|-max-procs|-delimiter|-replace|-arg-file|-jobs|-results)$/;

/** The command xargs runs, without xargs' own options. */
function afterXargs(w: string[]): string[] {
  let j = 1;
  while (j < w.length && w[j]!.startsWith('-')) j += XARGS_VALUED.test(w[j]!) ? 2 : 1;
  return w.slice(j);
}

/** `find … -exec cmd args {} ;`: the commands find runs. */
function findExecs(args: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i]!)) continue;
    const end = args.findIndex((a, j) => j > i && (a === ';' || a === '+' || a === '\\;'));
    out.push(args.slice(i + 1, end < 0 ? args.length : end));
  }
  return out;
}

/** `… | xargs rm -r`: the list comes from the producer; a filtered find inside the project is the routine case. */
function checkXargsRm(pipeline: Command[], rmArgs: string[], place: Place, ctx: Ctx): Finding | undefined {
  const producer = unwrap(pipeline[0]?.words ?? []);
  if (base(producer[0] ?? '') === 'find') {
    const f = checkFind([...producer.slice(1), '-delete'], place, ctx);
    return f && { ...f, check: 'xargs-rm', message: f.message.replace('… -delete', '… | xargs rm') };
  }
  const { short, long } = flagsOf(rmArgs);
  if (!/[rR]/.test(short) && !long.includes('--recursive')) return undefined;
  return finding(
    'destructive-delete',
    'xargs-rm',
    `xargs rm -r deletes whatever list ${base(producer[0] ?? 'its input')} produces, unseen`,
    'Delete the directories you mean by name, or list them with find inside the project first.',
  );
}

/** `echo "rm -rf /" | sh`, `cat <<EOF | bash`: the text a shell at the end of the pipeline reads and runs. */
function fedToShell(pipeline: Command[]): string | undefined {
  if (
    pipeline.length < 2 ||
    !pipeline.slice(1).some((c) => SHELLS.has(base(unwrap(c.words)[0] ?? '')) && runsStdin(unwrap(c.words)))
  )
    return undefined;
  const first = unwrap(pipeline[0]!.words);
  const name = base(first[0] ?? '');
  if (name === 'echo' || name === 'printf')
    return first
      .slice(1)
      .filter((a) => !/^-[neE]+$/.test(a))
      .join(' ');
  // `cat`, `cat -`: the here-document itself; `cat file` ignores it.
  return name === 'cat' && first.slice(1).every((a) => a === '-') ? pipeline[0]!.stdin : undefined;
}

/** Findings for one simple command (after wrappers), following what it hands to a shell or interpreter. */
function judge(w: string[], c: Command, pipeline: Command[], place: Place, ctx: Ctx, depth: number): Finding[] {
  // `GIT`, `RM` run git and rm on a file system that ignores case.
  const name = base(w[0] ?? '').toLowerCase();
  const out: Finding[] = [];
  const push = (f: Finding | undefined) => f && out.push(f);
  if (name === 'parallel') {
    // `parallel rm -rf {} ::: / build`: the template runs once per argument after `:::`.
    const marker = w.indexOf(':::');
    const template = unwrap(afterXargs(marker < 0 ? w : w.slice(0, marker)));
    const args = marker < 0 ? [] : w.slice(marker + 1).filter((a) => a !== ':::');
    if (marker < 0 && base(template[0] ?? '') === 'rm') push(checkXargsRm(pipeline, template.slice(1), place, ctx));
    const fill = (a: string) =>
      template.some((t) => t.includes('{}'))
        ? template.map((t) => t.replaceAll('{}', a))
        : [...template, ...(a ? [a] : [])];
    const runs = template.length
      ? (args.length ? args : ['']).map(fill)
      : args.map((a) => unwrap(parseShell(a).pipelines[0]?.[0]?.words ?? []));
    for (const r of runs)
      if (r.length) out.push(...judge(r, { words: r, redirects: [] }, pipeline, place, ctx, depth + 1));
    return out;
  }
  if (name === 'xargs') {
    const inner = unwrap(afterXargs(w));
    if (base(inner[0] ?? '') === 'rm') push(checkXargsRm(pipeline, inner.slice(1), place, ctx));
    if (inner.length) out.push(...judge(inner, { words: inner, redirects: [] }, pipeline, place, ctx, depth + 1));
    return out;
  }
  if (name === 'rm') push(checkRm(w.slice(1), place, ctx));
  if (name === 'find') {
    push(checkFind(w.slice(1), place, ctx));
    for (const e of findExecs(w.slice(1)))
      if (base(e[0] ?? '') !== 'rm')
        out.push(...judge(unwrap(e), { words: e, redirects: [] }, pipeline, place, ctx, depth + 1));
  }
  if (name === 'shred') push(checkDisk(w, c) ?? checkShred(w.slice(1), place, ctx));
  else push(checkDisk(w, c));
  if (name === 'mv') push(checkMv(w.slice(1), place, ctx));
  if (name === 'unlink') push(checkSystemFiles(name, w.slice(1), place, ctx));
  if (name === 'truncate')
    push(
      checkSystemFiles(
        name,
        flagsOf(w.slice(1).filter((a, i, all) => !/^-[sr]$/.test(all[i - 1] ?? ''))).rest,
        place,
        ctx,
      ),
    );
  // `> /etc/hosts` empties the file (`>>` appends, which is how hosts entries are added).
  const truncating = c.redirects.filter((r) => r.op === '>' || r.op === '>|' || r.op === '&>').map((r) => r.target);
  if (truncating.length) push(checkSystemFiles('>', truncating, place, ctx));
  if (name === 'git') push(checkGit(w, ctx));
  push(checkPermissions(w, place, ctx) ?? checkMachine(w) ?? checkInfra(w) ?? checkReverseShell(w, c));
  const code = inlineCode(w, c);
  if (code) {
    out.push(...checkCode(name, code, place, ctx));
    // Shell text inside a one-liner (`node -e "rm -rf /"`) is what the author meant to run.
    if (/\b(?:rm|git|dd|mkfs|chmod|chown|find|kubectl|docker|terraform)\s+-/.test(code))
      out.push(...analyze(code, ctx, place, depth + 1));
  }
  // Text that a shell will run as commands.
  const dashC = w.findIndex((a, j) => j > 0 && /^-[a-z]*c[a-z]*$/.test(a));
  const script =
    (SHELLS.has(name) || name === 'su') && dashC > 0
      ? w[dashC + 1]
      : name === 'eval'
        ? w.slice(1).join(' ')
        : undefined;
  if (script) {
    out.push(...analyze(script, ctx, place, depth + 1));
    // `bash -c "$(echo rm -rf /)"`: the substitution's output is the script.
    const echoed = script.replace(
      /\$\(\s*(?:echo|printf)\s+([^()]*)\)|`\s*(?:echo|printf)\s+([^`]*)`/g,
      (_, a, b) => a ?? b,
    );
    if (echoed !== script) out.push(...analyze(echoed.replace(/^(['"])(.*)\1$/s, '$2'), ctx, place, depth + 1));
  }
  if (SHELLS.has(name) && c.stdin && runsStdin(w)) out.push(...analyze(c.stdin, ctx, place, depth + 1));
  return out;
}

/** All findings for a command line, following `sh -c`, `eval`, substitutions, here-documents and interpreters. */
export function analyze(src: string, ctx: Ctx, start: Place, depth = 0): Finding[] {
  // Each level of `eval`, `sh -c`, `$(…)` is analysed; past the bound the text is denied unread, not passed unread.
  if (depth > 8) return [TOO_DEEP];
  const out: Finding[] = [];
  const parsed = parseShell(src);
  // A fork bomb is a definition plus a call: look at the text outside quotes.
  // (Quotes glued to a word are part of it: `f""(){ f|f& };f` defines and calls f.)
  const unquoted = src.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, '');
  if (/\(\)\s*\{/.test(unquoted) && FORK_BOMB.test(unquoted))
    out.push(finding('fork-bomb', 'fork-bomb', "a fork bomb exhausts the machine's processes", 'Remove it.'));
  let place = start;
  for (const pipeline of parsed.pipelines) {
    const first = unwrap(pipeline[0]?.words ?? []);
    if (pipeline.length === 1 && (first[0] === 'cd' || first[0] === 'pushd')) {
      place = cdTarget(
        first.slice(1).find((a) => !a.startsWith('-') || a === '-'),
        place,
        ctx,
      );
      continue;
    }
    const f = checkPipeline(pipeline) ?? checkDatabase(pipeline);
    if (f) out.push(f);
    const fed = fedToShell(pipeline);
    if (fed) out.push(...analyze(fed, ctx, place, depth + 1));
    for (const c of pipeline) out.push(...judge(unwrap(c.words), c, pipeline, place, ctx, depth));
  }
  for (const sub of parsed.substitutions) out.push(...analyze(sub, ctx, place, depth + 1));
  return out;
}

const ids = (v: string | undefined) => new Set((v ?? '').split(/[\s,]+/).filter(Boolean));

/** Judges a Bash tool call before it runs. */
export function validate(event: HookEvent): Verdict {
  const command = typeof event.toolInput?.command === 'string' ? event.toolInput.command : '';
  if (!command.trim()) return { passed: true, violations: [], summary: 'no command to check' };
  const cwd = event.cwd ?? event.projectRoot ?? process.cwd();
  const project = (event.projectRoot ?? '').replace(/(.)\/+$/, '$1');
  const allow = ids(process.env.AVP_DANGEROUS_COMMANDS_ALLOW);
  const ctx: Ctx = {
    project,
    cwd,
    home: homeDir().replace(/(.)\/+$/, '$1'),
    strict: ids(process.env.AVP_DANGEROUS_COMMANDS_DENY),
    recurse: (src, place) => analyze(src, ctx, place, 4),
  };
  const seen = new Set<string>();
  const findings = analyze(command, ctx, { dir: cwd.replace(/(.)\/+$/, '$1'), fromCd: false }).filter(
    (f) => !allow.has(f.rule) && !allow.has(f.check) && !seen.has(f.message) && seen.add(f.message),
  );
  const snippet = command.length > 200 ? `${command.slice(0, 197)}…` : command;
  return {
    passed: findings.length === 0,
    violations: findings.map((f) => ({ rule: f.rule, snippet, message: f.message, suggestion: f.suggestion })),
    summary: findings.length ? `dangerous command: ${findings.map((f) => f.message).join('; ')}` : 'command looks safe',
  };
}

if (import.meta.main) {
  try {
    const event = JSON.parse(await Bun.stdin.text()) as HookEvent;
    // console.log, not process.stdout.write: initialising Node's stdout stream costs ~10 ms of CPU per run.
    console.log(JSON.stringify(validate(event)));
  } catch (err) {
    console.error(`dangerous-commands: cannot read the event on stdin: ${(err as Error).message}`);
    process.exit(1);
  }
}
