/**
 * The files a shell command would write, read from the command line before it runs: redirections (`>`, `>>`, `&>`),
 * `tee`, the destination of `cp`/`mv`/`install`/`ln`/`rsync`, `dd of=`, `sed -i`/`perl -i`, `truncate`, `curl -o`,
 * `wget -O`, `ssh-keygen -f`, and the credential stores that `aws configure set` and `npm config set …_auth…` write.
 * Paths with an unknown variable cannot be judged and are skipped; reading a file is never a write.
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { base, parseShell, unwrap } from './shell.ts';

// `>& file` sends stdout and stderr to the file (the lexer has already taken `>&2` and `>&-`, which name descriptors).
const WRITE_OPS = new Set(['>', '>>', '>|', '>&', '&>', '&>>', '<>']);
const COPIERS = /^(?:cp|mv|install|ln|rsync|gcp|gmv)$/;

/** `~`, `$HOME`, `${HOME}` expanded; undefined when another variable or a substitution makes the path unknown. */
function expand(word: string, cwd: string, home: string): string | undefined {
  const p = word.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
  if (!p || /[$`]/.test(p) || /^[a-z][\w+.-]*:\/\//i.test(p) || /^[\w.-]+@?[\w.-]*:/.test(p)) return undefined; // remote
  return resolve(cwd, p);
}

/** A path not on disk is no directory (it is resolved, so it never ends with `/`). */
const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** The real path of `abs`: symlinks followed, a missing tail kept under its nearest existing ancestor's real path. */
export function realPath(abs: string): string {
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realPath(parent), basename(abs));
  }
}

/** Inside one of `dirs` as written or as it really is (a project opened through a link, `/tmp` → `/private/tmp`). */
const within = (abs: string, dirs: string[]) =>
  dirs.some((d) => abs.startsWith(`${d}/`)) || dirs.some((d) => realPath(abs).startsWith(`${realPath(d)}/`));

/** Operands of an argument list (options and the values of `valued` options left out). */
function operands(args: string[], valued: RegExp = /^$/): string[] {
  const out: string[] = [];
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (done || !a.startsWith('-') || a === '-') out.push(a);
    else if (a === '--') done = true;
    else if (valued.test(a)) i++;
  }
  return out;
}

/** Words naming the files one simple command writes (unexpanded). */
function written(w: string[]): string[] {
  const name = base(w[0] ?? '');
  const args = w.slice(1);
  if (name === 'tee') return operands(args);
  if (COPIERS.test(name)) {
    const target =
      args.find((a, i) => args[i - 1] === '-t') ?? args.find((a) => a.startsWith('--target-directory='))?.slice(19);
    // install's -o/-g/-m take a value; rsync's -o and -g are flags (keep owner, group), so they are not skipped there.
    const valued = name === 'install' ? /^-[tSogm]$|^--(?:suffix|owner|group|mode)$/ : /^-[tS]$|^--suffix$/;
    const ops = operands(args, valued);
    if (target) return ops.map((s) => `${target}/${basename(s)}`);
    if (ops.length < 2) return [];
    const dest = ops[ops.length - 1]!;
    // A destination ending in `/` is a directory; otherwise it may be one (checked on disk later, the `\0` mark).
    const into = dest.endsWith('/') ? dest : `${dest}/\0`;
    return [dest, ...ops.slice(0, -1).map((s) => `${into}${basename(s.replace(/\/+$/, ''))}`)];
  }
  if (name === 'dd') return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  if (name === 'truncate') return operands(args, /^-[sr]$|^--(?:size|reference)$/);
  if (
    (name === 'sed' || name === 'perl' || name === 'ruby') &&
    args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))
  ) {
    const ops = operands(args, /^-[eEf]$|^--(?:expression|file)$/);
    // With -e or a script file (-f) every operand is a file to edit; otherwise the first operand is the script.
    const scripted = args.some((a) => /^-[a-zA-Z]*[eEf]$|^--(?:expression|file)/.test(a));
    return scripted ? ops : ops.slice(1);
  }
  if (name === 'curl')
    return args.flatMap((a, i) =>
      // `-o` may end a cluster of flags (`curl -sSLo file`).
      /^(?:-[a-zA-Z]*o|--output)$/.test(args[i - 1] ?? '') ? [a] : a.startsWith('--output=') ? [a.slice(9)] : [],
    );
  // `-O -` (stdout) is dropped with every other `-` in shellWrites.
  if (name === 'wget')
    return args.flatMap((a, i) =>
      /^(?:-[a-zA-Z]*O|--output-document)$/.test(args[i - 1] ?? '')
        ? [a]
        : a.startsWith('--output-document=')
          ? [a.slice(18)]
          : [],
    );
  if (name === 'ssh-keygen' && !args.some((a) => /^-[lyFRLBrE]$/.test(a)))
    return args.flatMap((a, i) => (args[i - 1] === '-f' ? [a] : []));
  if (name === 'aws' && args[0] === 'configure' && (args[1] === 'set' || args.length === 1))
    return ['~/.aws/credentials', '~/.aws/config'];
  if (
    /^(?:npm|pnpm|yarn)$/.test(name) &&
    args[0] === 'config' &&
    args[1] === 'set' &&
    /_auth|_password|token/i.test(args[2] ?? '')
  )
    return [args.some((a) => /^--location=project$/.test(a)) ? '.npmrc' : '~/.npmrc'];
  return [];
}

/** Absolute paths the command would write; `root` is the project (scratch space outside it and home is skipped). */
export function shellWrites(command: string, cwd: string, home: string, root: string, depth = 0): string[] {
  if (depth > 4) return [];
  const out: string[] = [];
  const parsed = parseShell(command);
  let here: string | undefined = cwd;
  for (const pipeline of parsed.pipelines) {
    for (const c of pipeline) {
      const w = unwrap(c.words);
      const name = base(w[0] ?? '');
      if (pipeline.length === 1 && (name === 'cd' || name === 'pushd')) {
        const dest = w.slice(1).find((a) => !a.startsWith('-')) ?? '~';
        here = here === undefined ? undefined : expand(dest, here, home);
        continue;
      }
      if (here === undefined) continue;
      const words = [...c.redirects.filter((r) => WRITE_OPS.has(r.op)).map((r) => r.target), ...written(w)];
      for (const word of words) {
        // A destination directory (`cp key ~/.ssh/`) is not written itself: the copies inside it are listed.
        if (/^\/dev\/|^&?\d$|^-$/.test(word) || word.endsWith('/')) continue;
        const [dir, file] = word.split('\0') as [string, string | undefined];
        const abs = expand(dir, here, home);
        if (!abs) continue;
        // Scratch space outside the project and home is nobody's credential store (`mv package-lock.json /tmp/`).
        if (/^\/(?:tmp|var\/tmp|private\/tmp|dev\/shm)(?:\/|$)/.test(abs) && !within(abs, [home, root])) continue;
        // `cp key ~/.ssh/`: the copy lands inside the directory, under the source's name.
        if (file === undefined) out.push(abs);
        else if (isDir(abs)) out.push(`${abs}/${file}`);
      }
      // Text handed to a shell is a command line too: `sh -c 'echo k >> ~/.ssh/authorized_keys'`.
      const dashC = w.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
      if (/^(?:sh|bash|zsh|dash|ksh|su)$/.test(name) && dashC > 0 && w[dashC + 1])
        out.push(...shellWrites(w[dashC + 1]!, here, home, root, depth + 1));
      if (name === 'eval') out.push(...shellWrites(w.slice(1).join(' '), here, home, root, depth + 1));
      if (/^(?:sh|bash|zsh|dash|ksh)$/.test(name) && c.stdin && w.length === 1)
        out.push(...shellWrites(c.stdin, here, home, root, depth + 1));
    }
  }
  for (const sub of parsed.substitutions) out.push(...shellWrites(sub, cwd, home, root, depth + 1));
  return [...new Set(out)];
}
