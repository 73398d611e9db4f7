#!/usr/bin/env bun
/**
 * dangerous-commands — avp catalog script judge (self-contained: Bun/Node built-ins and ./shell.ts only).
 *
 * PreToolUse on Bash: reads `toolInput.command`, parses it (./shell.ts) and denies commands that destroy data or
 * the machine before they run. Text that is only data (`echo "rm -rf /"`, a commit message) is not a command and is
 * not flagged; text handed to a shell (`sh -c`, `eval`, `bash <<EOF`, `$(…)`) is. Rules: ../references/rules.md.
 */
import { base, parseShell, unwrap, type Command } from './shell.ts';

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
interface Finding {
  rule: string;
  message: string;
  suggestion: string;
}

const SYSTEM_DIRS =
  /^\/(?:bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|sbin|srv|sys|usr|var|System|Library|Users|Applications|private|Volumes)$/;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash', 'mksh', 'csh', 'tcsh']);
const INTERPRETERS = /^(?:python[0-9.]*|perl|ruby|node|php|pwsh|powershell)$/;
const DOWNLOADERS = /^(?:curl|wget|fetch|aria2c|http|https|xh)$/;
const DB_CLIENTS =
  /^(?:psql|mysql|mariadb|sqlite3?|sqlcmd|clickhouse(?:-client)?|cockroach|mongo|mongosh|redis-cli|cqlsh|duckdb|snowsql|turso|pscale)$/;
const PROTECTED_BRANCH =
  /^(?:main|master|trunk|develop|development|production|prod|stable|live|release|releases?[/-].+)$/;
const DEVICE =
  /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|mapper\/|dm-\d|loop\d|sr\d)/;

/** Targets whose recursive deletion destroys the system, a home directory or the whole project. */
function catastrophicTarget(t: string, project: string): string | undefined {
  const p = t.length > 1 ? t.replace(/\/+$/, '') : t;
  const strip = p.replace(/\/\*$|\/\.$/, '') || '/';
  if (strip === '/' || p === '/*') return 'the whole filesystem';
  if (/^(?:~|\$HOME|\$\{HOME\})$/.test(strip) || /^\/(?:home|Users)\/[^/]+$/.test(strip) || strip === '/root')
    return 'a home directory';
  if (SYSTEM_DIRS.test(strip)) return `the system directory ${strip}`;
  if (/^(?:\.|\.\/?\*|\*|\.\*|\.\.|\.\.\/\*)$/.test(p) || /^(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)$/.test(strip))
    return 'the current directory (the project)';
  if (/^(?:\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\})$/.test(strip) || (project && strip === project))
    return 'the project directory';
  if (/^(?:\.\/)?\.git$/.test(p)) return 'the repository history (.git)';
  return undefined;
}

function flagsOf(args: string[]): { short: string; long: string[]; rest: string[] } {
  let short = '';
  const long: string[] = [];
  const rest: string[] = [];
  let done = false;
  for (const a of args) {
    if (done || !a.startsWith('-') || a === '-') rest.push(a);
    else if (a === '--') done = true;
    else if (a.startsWith('--')) long.push(a);
    else short += a.slice(1);
  }
  return { short, long, rest };
}

function checkRm(args: string[], project: string, inSubdir: boolean): Finding | undefined {
  const { short, long, rest } = flagsOf(args);
  if (long.includes('--no-preserve-root')) {
    return {
      rule: 'destructive-delete',
      message: 'rm --no-preserve-root disables the safeguard against deleting /',
      suggestion: 'Delete the specific directory you mean instead.',
    };
  }
  if (!/[rR]/.test(short) && !long.includes('--recursive')) return undefined;
  for (const t of rest) {
    const what = catastrophicTarget(t, project);
    // After `cd build &&`, `rm -rf *` empties build/, not the project.
    if (what && !(inSubdir && what.startsWith('the current')))
      return {
        rule: 'destructive-delete',
        message: `rm -r ${t} would delete ${what}`,
        suggestion:
          'Delete only the specific build or cache directory you mean (e.g. rm -rf ./dist), or ask the user to run this themselves.',
      };
  }
  return undefined;
}

function checkFind(args: string[], project: string): Finding | undefined {
  const start = args.find((a) => !a.startsWith('-'));
  if (
    !start ||
    !(args.includes('-delete') || args.some((a, i) => /^-exec(?:dir)?$/.test(a) && base(args[i + 1] ?? '') === 'rm'))
  )
    return undefined;
  const what = catastrophicTarget(start, project);
  if (!what || what.startsWith('the current') || what.startsWith('the project')) return undefined; // `find . -name x -delete` is routine
  return {
    rule: 'destructive-delete',
    message: `find ${start} … -delete would delete files across ${what}`,
    suggestion: 'Restrict find to the project directory you mean.',
  };
}

function currentBranch(cwd: string): string | undefined {
  try {
    // Bun.spawnSync rather than node:child_process, whose import alone costs a few ms on every run.
    const r = Bun.spawnSync(['git', 'rev-parse', '--abbrev-ref', 'HEAD'], {
      cwd,
      stdout: 'pipe',
      stderr: 'ignore',
      timeout: 2000,
    });
    return r.exitCode === 0 ? r.stdout.toString().trim() : undefined;
  } catch {
    return undefined;
  }
}

function checkGitPush(words: string[], cwd: string): Finding | undefined {
  let i = 1;
  while (i < words.length && words[i]!.startsWith('-')) i += /^-[Cc]$/.test(words[i]!) ? 2 : 1; // git -C dir / -c k=v
  if (words[i] !== 'push') return undefined;
  const { short, long, rest } = flagsOf(
    words.slice(i + 1).filter((w, j, all) => !/^-(?:o|-push-option|-repo|-receive-pack|-exec)$/.test(all[j - 1] ?? '')),
  );
  const longName = (n: string) => long.some((l) => l === n || l.startsWith(`${n}=`));
  const mirror = longName('--mirror');
  const forced =
    short.includes('f') ||
    longName('--force') ||
    longName('--force-with-lease') ||
    longName('--force-if-includes') ||
    mirror;
  const deleting = short.includes('d') || longName('--delete');
  const refspecs = rest.slice(1);
  const suggestion =
    'Push to a feature branch and open a pull request; rewriting or deleting a protected branch is for the user to do.';
  if (forced && (mirror || longName('--all')))
    return {
      rule: 'force-push-protected',
      message: `git push ${mirror ? '--mirror' : '--all'} with force overwrites every branch, protected ones included`,
      suggestion,
    };
  const dests = refspecs.map((r) => ({
    plus: r.startsWith('+'),
    del: r.startsWith(':'),
    dest: r
      .replace(/^\+/, '')
      .split(':')
      .pop()!
      .replace(/^refs\/heads\//, ''),
  }));
  if (!dests.length || dests.every((d) => d.dest === 'HEAD')) {
    if (!forced) return undefined;
    const branch = currentBranch(cwd);
    if (branch && PROTECTED_BRANCH.test(branch))
      return {
        rule: 'force-push-protected',
        message: `force-push of the current branch ${branch}, a protected branch`,
        suggestion,
      };
    return undefined;
  }
  for (const d of dests) {
    if (!PROTECTED_BRANCH.test(d.dest)) continue;
    if (deleting || d.del)
      return { rule: 'force-push-protected', message: `git push deletes the protected branch ${d.dest}`, suggestion };
    if (forced || d.plus)
      return {
        rule: 'force-push-protected',
        message: `force-push to the protected branch ${d.dest} rewrites its history`,
        suggestion,
      };
  }
  return undefined;
}

/** True when a shell or interpreter in this position would execute what arrives on its stdin. */
function runsStdin(words: string[]): boolean {
  const name = base(words[0] ?? '');
  const args = words.slice(1);
  if (SHELLS.has(name)) {
    const { short, rest } = flagsOf(args);
    return !short.includes('c') && (short.includes('s') || rest.length === 0 || rest[0] === '-');
  }
  if (INTERPRETERS.test(name)) {
    const { short, long, rest } = flagsOf(args);
    return (
      !/[cem]/.test(short) &&
      !long.some((l) => /^--(?:eval|print|command)/.test(l)) &&
      (rest.length === 0 || rest[0] === '-')
    );
  }
  return false;
}

const fetches = (text: string) =>
  parseShell(text).pipelines.some((p) => p.some((c) => DOWNLOADERS.test(base(unwrap(c.words)[0] ?? ''))));

function checkPipeToShell(pipeline: Command[]): Finding | undefined {
  const suggestion =
    'Download the script to a file, read it, then run it explicitly (or ask the user to run the installer).';
  let fetched = false;
  for (const c of pipeline) {
    const w = unwrap(c.words);
    const name = base(w[0] ?? '');
    if (fetched && runsStdin(w))
      return { rule: 'pipe-to-shell', message: `remote content piped into ${name} runs unreviewed code`, suggestion };
    if (DOWNLOADERS.test(name)) fetched = true;
    if (SHELLS.has(name) || INTERPRETERS.test(name) || name === 'source' || name === '.' || name === 'eval') {
      // `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(wget -O- …)"`, `source <(curl …)`
      for (const arg of w.slice(1)) {
        const inner = /^[<]\((.*)\)$/s.exec(arg)?.[1] ?? /\$\((.*)\)|`(.*)`/s.exec(arg)?.slice(1).find(Boolean);
        if (inner && fetches(inner))
          return {
            rule: 'pipe-to-shell',
            message: `${name} runs a script downloaded on the fly (${arg.slice(0, 60)})`,
            suggestion,
          };
      }
    }
  }
  return undefined;
}

function checkDisk(w: string[], c: Command): Finding | undefined {
  const name = base(w[0] ?? '');
  const suggestion = 'Write to an image file (e.g. of=./disk.img) or ask the user to run device operations themselves.';
  for (const r of c.redirects) {
    if (/>/.test(r.op) && DEVICE.test(r.target))
      return {
        rule: 'disk-write',
        message: `redirection into the block device ${r.target} overwrites a disk`,
        suggestion,
      };
  }
  if (name === 'dd') {
    const of = w.find((a) => a.startsWith('of='))?.slice(3);
    if (of && DEVICE.test(of)) return { rule: 'disk-write', message: `dd of=${of} overwrites a disk`, suggestion };
  }
  if (
    /^(?:mkfs(?:\..+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|cfdisk|parted|sgdisk|gdisk|shred|blkdiscard|cryptsetup|newfs(?:_.+)?)$/.test(
      name,
    ) ||
    (name === 'diskutil' && /^(?:erase|partition|zero|random|secureErase)/i.test(w[1] ?? ''))
  ) {
    const dev = w.slice(1).find((a) => DEVICE.test(a) || /^disk\d/.test(a));
    if (dev) return { rule: 'disk-write', message: `${name} on ${dev} destroys the data on that device`, suggestion };
  }
  return undefined;
}

function checkChmod(w: string[], project: string): Finding | undefined {
  if (base(w[0] ?? '') !== 'chmod') return undefined;
  const { short, long, rest } = flagsOf(w.slice(1));
  const recursive = /R/.test(short) || long.includes('--recursive');
  const mode = rest[0] ?? '';
  // Numeric: the "others" digit has the write bit. Symbolic: a clause for all/others that adds write.
  const worldWritable =
    /^0?[0-7]?[0-7]{2}[2367]$/.test(mode) || mode.split(',').some((p) => /^[ugoa]*[ao][ugoa]*[+=][rwxXst]*w/.test(p));
  if (!worldWritable) return undefined;
  const targets = rest.slice(1);
  const wide = targets.find((t) => catastrophicTarget(t, project));
  if (recursive || wide) {
    return {
      rule: 'chmod-world-writable',
      message: `chmod ${recursive ? '-R ' : ''}${mode} ${wide ?? targets.join(' ')} makes everything under it writable by every user`,
      suggestion: 'Grant only what is needed (e.g. chmod 755 for directories, chmod +x for one script).',
    };
  }
  return undefined;
}

const SQL_DESTROY =
  /\bDROP\s+(?:DATABASE|SCHEMA|TABLE)\b|\bTRUNCATE\s+(?:TABLE\s+)?[`"\w]|\.dropDatabase\s*\(|\bFLUSHALL\b|\bFLUSHDB\b/i;

function checkDatabase(pipeline: Command[]): Finding | undefined {
  const suggestion = 'Use a migration the user can review, or ask the user to drop data themselves.';
  for (const c of pipeline) {
    const w = unwrap(c.words);
    const name = base(w[0] ?? '');
    if (name === 'dropdb' || (name === 'mysqladmin' && w.some((a) => /^drop$/i.test(a)))) {
      return { rule: 'drop-database', message: `${name} drops a whole database`, suggestion };
    }
  }
  // The client may be wrapped: `docker exec db psql …`, `kubectl exec pod -- mysql …`.
  if (!pipeline.some((c) => c.words.some((w) => DB_CLIENTS.test(base(w))))) return undefined;
  const text = pipeline.flatMap((c) => [...c.words, c.stdin ?? '']).join(' ');
  const m = SQL_DESTROY.exec(text);
  return m
    ? { rule: 'drop-database', message: `${m[0].trim()} sent to a database client destroys data`, suggestion }
    : undefined;
}

// Name length is bounded so a long word cannot make the backtracking quadratic.
const FORK_BOMB = /([A-Za-z_:][\w:]{0,40})\s*\(\)\s*\{[^}]{0,200}?\1\s*\|\s*\1\s*&[^}]{0,200}\}\s*;?\s*\1/;

/** All findings for a command line, following `sh -c`, `eval`, substitutions and here-documents fed to shells. */
export function analyze(
  src: string,
  ctx: { project: string; cwd: string },
  depth = 0,
  startsInSubdir = false,
): Finding[] {
  if (depth > 8) return [];
  const out: Finding[] = [];
  const parsed = parseShell(src);
  // A fork bomb is a definition plus a call: look at the text outside quotes.
  const unquoted = src.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, "''");
  if (/\(\)\s*\{/.test(unquoted) && FORK_BOMB.test(unquoted))
    out.push({ rule: 'fork-bomb', message: "a fork bomb exhausts the machine's processes", suggestion: 'Remove it.' });
  let inSubdir = startsInSubdir;
  for (const pipeline of parsed.pipelines) {
    const first = unwrap(pipeline[0]?.words ?? []);
    if (pipeline.length === 1 && (first[0] === 'cd' || first[0] === 'pushd')) {
      const dest = first.slice(1).find((a) => !a.startsWith('-')) ?? '~';
      inSubdir = !catastrophicTarget(dest, ctx.project) && dest !== '-';
      continue;
    }
    const f = checkPipeToShell(pipeline) ?? checkDatabase(pipeline);
    if (f) out.push(f);
    for (const c of pipeline) {
      const w = unwrap(c.words);
      const name = base(w[0] ?? '');
      const hit =
        (name === 'rm' ? checkRm(w.slice(1), ctx.project, inSubdir) : undefined) ??
        (name === 'find' ? checkFind(w.slice(1), ctx.project) : undefined) ??
        (name === 'git' ? checkGitPush(w, ctx.cwd) : undefined) ??
        checkDisk(w, c) ??
        checkChmod(w, ctx.project);
      if (hit) out.push(hit);
      // Text that a shell will run as commands.
      const dashC = w.findIndex((a, j) => j > 0 && /^-[a-z]*c[a-z]*$/.test(a));
      if ((SHELLS.has(name) || name === 'su') && dashC > 0 && w[dashC + 1])
        out.push(...analyze(w[dashC + 1]!, ctx, depth + 1));
      if (name === 'eval') out.push(...analyze(w.slice(1).join(' '), ctx, depth + 1));
      if (SHELLS.has(name) && c.stdin && runsStdin(w)) out.push(...analyze(c.stdin, ctx, depth + 1));
    }
  }
  for (const sub of parsed.substitutions) out.push(...analyze(sub, ctx, depth + 1));
  return out;
}

/** Judges a Bash tool call before it runs. */
export function validate(event: HookEvent): Verdict {
  const command = typeof event.toolInput?.command === 'string' ? event.toolInput.command : '';
  if (!command.trim()) return { passed: true, violations: [], summary: 'no command to check' };
  const cwd = event.cwd ?? event.projectRoot ?? process.cwd();
  const seen = new Set<string>();
  const project = (event.projectRoot ?? '').replace(/\/+$/, '');
  // Claude Code's Bash keeps its cwd between calls: after an earlier `cd build`, `rm -rf *` runs inside build/.
  const inSubdir = Boolean(project) && cwd.startsWith(`${project}/`);
  const findings = analyze(command, { project, cwd }, 0, inSubdir).filter(
    (f) => !seen.has(f.message) && seen.add(f.message),
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
