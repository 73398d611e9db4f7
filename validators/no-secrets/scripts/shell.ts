/**
 * A shell command before it runs: the text it writes to files (`echo … > f`, `printf … >> f`, `… | tee f`, heredocs,
 * `sed -i`), so a literal secret is refused before it reaches the disk; and `git commit`, judged by what it would
 * commit (the staged diff; with `-a` or a `git add` in the same command, the working tree too), so a key that was
 * flagged and left in place cannot be committed. Files a command produces on its own are judged after it ran.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Added } from './added-lines.ts';

export interface Written {
  /** Project-relative path written to (`(command)` when the target is not a plain path). */
  file: string;
  added: Added[];
}

/** Splits a command into statements on unquoted `;`, `&&`, `||`, `&` and newlines (pipes stay inside). */
function statements(command: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') {
        cur += c + (command[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === quote) quote = '';
      cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (c === '\\') {
      cur += c + (command[i + 1] ?? '');
      i++;
    } else if (c === '\n' || c === ';' || ((c === '&' || c === '|') && command[i + 1] === c)) {
      out.push(cur);
      cur = '';
      if (c !== '\n' && c !== ';') i++;
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

/** The words of a statement, quotes removed (`"a b"` is one word; `\n` in printf formats becomes a line break). */
function words(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  let any = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"' && /["\\$`]/.test(s[i + 1] ?? '')) cur += s[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      any = true;
    } else if (c === '\\') cur += s[++i] ?? '';
    else if (/\s/.test(c)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
    } else cur += c;
  }
  if (cur || any) out.push(cur);
  return out;
}

// The character before `>` is looked at, not consumed: `echo KEY>f` prints `KEY`, all of it.
const REDIRECT = /(?<![<>&\d])\d?>>?\|?\s*(?!&)("[^"]+"|'[^']+'|[^\s;|&<>]+)/g;
const HEREDOC = /<<-?\s*(["']?)([A-Za-z_][\w-]*)\1/g;

/** Where a statement writes: redirect targets (not /dev/*), `tee` arguments, `sed -i` / `perl -pi` files. */
function targets(stmt: string): string[] {
  const out: string[] = [];
  for (const m of stmt.matchAll(REDIRECT)) {
    const t = m[1]!.replace(/^["']|["']$/g, '');
    if (!t.startsWith('/dev/')) out.push(t);
  }
  const tee = /\btee\s+((?:-\w+\s+)*)([^\s;|&<>]+)/.exec(stmt);
  if (tee) out.push(tee[2]!.replace(/^["']|["']$/g, ''));
  const inPlace = /\b(?:sed\s+(?:-\w*\s+)*-i|perl\s+-\w*i)\b.*\s([^\s;|&<>'"-][^\s;|&<>]*)\s*$/.exec(stmt);
  if (inPlace) out.push(inPlace[1]!);
  return out;
}

/** The text `echo`/`printf` statements of a pipeline print (their arguments, unquoted), or the statement itself. */
function printed(stmt: string): string {
  const parts: string[] = [];
  for (const seg of stmt.split(/\|(?!\|)/)) {
    const w = words(seg.replace(REDIRECT, ' '));
    if (w[0] === 'echo')
      parts.push(
        w
          .slice(1)
          .filter((x) => !/^-[neE]+$/.test(x))
          .join(' '),
      );
    else if (w[0] === 'printf') parts.push(w.slice(1).join(' ').replace(/\\n/g, '\n'));
  }
  return parts.length ? parts.join('\n') : stmt;
}

const lines = (text: string): Added[] => text.split('\n').map((t) => ({ text: t }));

/** What a shell command writes to files, before it runs. */
export function commandWrites(command: string, root: string, cwd: string): Written[] {
  const rel = (t: string) => {
    // resolve, not join: an absolute target (also `~/` expanded) must not be appended to the working directory.
    const abs = resolve(cwd, t.replace(/^~\//, `${process.env.HOME ?? '~'}/`));
    const r = relative(root, abs);
    return r && !r.startsWith('..') ? r : abs;
  };
  const out: Written[] = [];
  // Heredoc bodies first (they are data, not statements); the line that opens one says where it goes.
  const src = command.split('\n');
  const kept: string[] = [];
  for (let i = 0; i < src.length; i++) {
    kept.push(src[i]!);
    for (const m of src[i]!.matchAll(HEREDOC)) {
      const end = m[2]!;
      const body: string[] = [];
      while (++i < src.length && src[i]!.replace(/^\t+/, '') !== end) body.push(src[i]!);
      const to = targets(src[i - body.length - 1] ?? '');
      out.push({ file: to.length ? rel(to[0]!) : '(heredoc)', added: lines(body.join('\n')) });
    }
  }
  for (const stmt of statements(kept.join('\n'))) {
    const to = targets(stmt);
    if (!to.length || /<<-?\s*["']?[A-Za-z_]/.test(stmt)) continue; // a heredoc's body was judged above
    out.push({ file: rel(to[0]!), added: lines(printed(stmt)) });
  }
  return out;
}

/** True when a statement of the command is a `git commit`; `all` when it commits the working tree too. */
export function gitCommit(command: string): { all: boolean; adds: boolean } | undefined {
  let found: { all: boolean; adds: boolean } | undefined;
  let added = false;
  for (const stmt of statements(command)) {
    const w = words(stmt);
    const g = w.indexOf('git');
    if (g < 0) continue;
    let i = g + 1;
    while (i < w.length && /^-/.test(w[i]!)) i += /^-[Cc]$/.test(w[i]!) ? 2 : 1;
    if (w[i] === 'add' || w[i] === 'stage') added = true;
    if (w[i] !== 'commit') continue;
    const flags = w.slice(i + 1).filter((x) => /^-[^-]/.test(x) || x === '--all');
    const all = flags.some((f) => f === '--all' || (/^-[a-zA-Z]+$/.test(f) && f.includes('a')));
    found = { all: all || added, adds: added };
  }
  return found;
}

function git(cwd: string, args: string[]): string {
  // Bun.spawnSync rather than node:child_process, whose import alone costs a few ms on every run.
  const r = Bun.spawnSync(['git', ...args], {
    cwd,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
  });
  return r.exitCode === 0 ? r.stdout.toString() : '';
}

/** Files and `+` lines of a multi-file unified diff (`git diff -U0`), numbered in the new file. */
export function diffFiles(diff: string): Array<{ file: string; added: Added[] }> {
  const out: Array<{ file: string; added: Added[] }> = [];
  let cur: { file: string; added: Added[] } | undefined;
  let next = 0;
  for (const l of diff.split('\n')) {
    if (l.startsWith('+++ ')) {
      const path = l.slice(4).replace(/^b\//, '');
      cur = path === '/dev/null' ? undefined : { file: path, added: [] };
      if (cur) out.push(cur);
      continue;
    }
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) next = Number(h[1]);
    else if (cur && l.startsWith('+')) cur.added.push({ line: next++, text: l.slice(1) });
    else if (l.startsWith(' ')) next++;
  }
  return out;
}

/** What a `git commit` in `cwd` would add: the staged diff, plus the working tree's when `all`. Bounded. */
export function commitChanges(cwd: string, all: boolean, adds: boolean): Array<{ file: string; added: Added[] }> {
  const base = ['-c', 'core.quotepath=off', 'diff', '--no-color', '--no-ext-diff', '--no-renames', '-U0'];
  const out = diffFiles(git(cwd, [...base, '--cached']));
  if (!all) return out;
  out.push(...diffFiles(git(cwd, base)));
  if (!adds) return out;
  // `git add new-file && git commit`: untracked files the add may pick up, read whole (bounded in count and size).
  const top = git(cwd, ['rev-parse', '--show-toplevel']).trim() || cwd;
  for (const f of git(cwd, ['ls-files', '-o', '--exclude-standard', '--full-name']).split('\n').slice(0, 200)) {
    if (!f) continue;
    const st = statSync(join(top, f), { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > 512 * 1024) continue;
    const text = readFileSync(join(top, f), 'utf8');
    out.push({ file: f, added: text.split('\n').map((t, i) => ({ line: i + 1, text: t })) });
  }
  return out;
}
