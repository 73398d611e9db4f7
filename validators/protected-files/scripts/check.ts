#!/usr/bin/env bun
/**
 * protected-files — avp catalog script judge (self-contained: Bun/Node built-ins and the files of this folder).
 *
 * PreToolUse on Write/Edit/MultiEdit/NotebookEdit: denies edits to the files listed in ../references/protected.txt
 * (gitignore-style globs, read at run time so a team can edit the list). PreToolUse on Bash: denies a command that
 * writes such a file (`echo key >> ~/.ssh/authorized_keys`, `cp x .env`, `tee`, `sed -i`; ./writes.ts). The list is
 * found through AVP_VALIDATOR_DIR (set by avp for script judges) or, when run in-process, next to this script.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { globSource, lazyGlobTest } from './globs.ts';
import { realPath, shellWrites } from './writes.ts';

/** The home folder as node:os gives it (HOME when set), without loading node:os on every call (~0.3 ms). */
const homeDir = () => process.env.HOME || process.getBuiltinModule('node:os').homedir();

interface FileChange {
  path?: string;
  relPath?: string;
  /** The path as the tool input named it, when avp resolved it to another real path (a symlink). */
  namedPath?: string;
  /** The file system ignores case: `.ENV` is `.env`. */
  caseInsensitive?: boolean;
}
interface HookEvent {
  tool?: string;
  toolInput?: Record<string, unknown>;
  projectRoot?: string;
  cwd?: string;
  files?: FileChange[];
}
interface Violation {
  rule: string;
  file?: string;
  snippet?: string;
  suggestion?: string;
  message?: string;
}
export interface Verdict {
  passed: boolean;
  violations: Violation[];
  summary: string;
}

export interface Pattern {
  glob: string;
  negate: boolean;
  /** Matches against the project-relative path (or absolute path for `~/` patterns); `nocase` ignores case. */
  test: (rel: string, abs: string, nocase?: boolean) => boolean;
  reason?: string;
  line: number;
  /** `[credentials]` after the glob: protected only when the file holds (or would hold) a credential. */
  credentials?: boolean;
}

/** Parses protected.txt. Throws with the line number on a pattern that does not compile. */
export function parsePatterns(text: string, file = 'protected.txt'): Pattern[] {
  const patterns: Pattern[] = [];
  let reason: string | undefined;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('#')) {
      const r = /^#\s*reason:\s*(.+)$/i.exec(line);
      if (r) reason = r[1];
      continue;
    }
    const negate = line.startsWith('!');
    const credentials = /\s+\[credentials\]$/.test(line);
    let glob = (negate ? line.slice(1) : line).replace(/\s+\[credentials\]$/, '');
    const home = glob.startsWith('~/');
    const dir = glob.endsWith('/');
    if (dir) glob = glob.slice(0, -1);
    const anchored = home || glob.includes('/');
    const body = home ? glob.slice(2) : glob.replace(/^\//, '');
    const source = () => `${anchored ? '^' : '(?:^|/)'}${globSource(body)}${dir ? '/' : '$'}`;
    // Only a set (`[…]`, copied as written) can make the expression invalid: compiled now, so the line is named.
    if (body.includes('['))
      try {
        new RegExp(source());
      } catch (err) {
        throw new Error(`${file}:${i + 1}: invalid pattern "${line}": ${(err as Error).message}`);
      }
    const matches = lazyGlobTest(body, source);
    const test = home
      ? (_rel: string, abs: string, nocase?: boolean) => {
          const h = `${homeDir()}/`;
          const inHome = nocase ? abs.toLowerCase().startsWith(h.toLowerCase()) : abs.startsWith(h);
          return inHome && matches(abs.slice(h.length), nocase);
        }
      : anchored
        ? (rel: string, _abs: string, nocase?: boolean) => !rel.startsWith('/') && matches(rel, nocase)
        : (rel: string, _abs: string, nocase?: boolean) => matches(rel, nocase);
    patterns.push({ glob: line, negate, test, reason, line: i + 1, credentials });
  }
  return patterns;
}

/** The last matching pattern decides (gitignore semantics); undefined when the path is not protected. */
export function protectedBy(patterns: Pattern[], rel: string, abs: string, nocase = false): Pattern | undefined {
  let hit: Pattern | undefined;
  for (const p of patterns) if (p.test(rel, abs, nocase)) hit = p.negate ? undefined : p;
  return hit;
}

function listPath(): string {
  const dir = process.env.AVP_VALIDATOR_DIR || join(import.meta.dir, '..');
  return join(dir, 'references', 'protected.txt');
}

interface Target {
  rel: string;
  abs: string;
  nocase: boolean;
}

/**
 * Paths the tool is about to write: the engine's file list (real paths; also the path as named when a symlink made
 * them differ — either being protected is enough), else the tool input (PreToolUse may carry only that).
 */
function targets(event: HookEvent): Target[] {
  const root = resolve(event.projectRoot ?? event.cwd ?? process.cwd());
  const toRel = (abs: string) => (abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : abs);
  const out = (event.files ?? []).flatMap((f) => {
    const abs = f.path ? resolve(root, f.path) : f.relPath ? resolve(root, f.relPath) : '';
    if (!abs) return [];
    const nocase = f.caseInsensitive === true;
    const real = { rel: f.relPath ?? toRel(abs), abs, nocase };
    return f.namedPath && f.namedPath !== abs ? [real, { rel: toRel(f.namedPath), abs: f.namedPath, nocase }] : [real];
  });
  if (out.length) return out;
  const input = event.toolInput ?? {};
  if (typeof input.command === 'string' && !input.file_path) {
    const writes = shellWrites(input.command, resolve(event.cwd ?? root), homeDir(), root);
    if (!writes.length) return [];
    const realRoot = realPath(root);
    // Judged by the file really written and by the name used, as for the file tools (a symlink changes nothing).
    return writes.flatMap((abs) => {
      const real = realPath(abs);
      const named = { rel: toRel(abs), abs, nocase: false };
      const target = {
        rel: real.startsWith(`${realRoot}/`) ? real.slice(realRoot.length + 1) : toRel(real),
        abs: real,
        nocase: false,
      };
      return real === abs ? [target] : [target, named];
    });
  }
  const p = input.file_path ?? input.notebook_path ?? input.path;
  if (typeof p !== 'string' || !p) return [];
  const abs = isAbsolute(p) ? resolve(p) : resolve(event.cwd ?? root, p);
  const real = realPath(abs);
  const realRoot = realPath(root);
  const rel = real.startsWith(`${realRoot}/`) ? real.slice(realRoot.length + 1) : toRel(real);
  return [{ rel, abs: real, nocase: false }];
}

/** Parsed lists by path, reused while the file's size and mtime are unchanged (an in-process engine calls often). */
const parsed = new Map<string, { stamp: string; patterns: Pattern[] }>();

function loadList(path: string): Pattern[] {
  const st = statSync(path);
  const stamp = `${st.size}:${st.mtimeMs}`;
  const hit = parsed.get(path);
  if (hit?.stamp === stamp) return hit.patterns;
  const patterns = parsePatterns(readFileSync(path, 'utf8'), path);
  parsed.set(path, { stamp, patterns });
  return patterns;
}

/** Credential lines: npm/yarn auth tokens, passwords (pypirc, pip, maven, netrc), user:password@ URLs, tokens. */
const CREDENTIAL =
  /[^\w]_(?:authToken|auth|password)\s*=\s*["']?[^\s$"']|(?:^|\\n|\s)(?:password|passwd)\s*[=:]\s*["']?[^\s$"']|<password>\s*[^<$\s]|\bnpmAuthToken:\s*["']?[^\s$"']|\b\w+:\/\/[^\s:@/]+:[^\s@/$]+@|\b(?:token|secret|api[_-]?key|access[_-]?key)\s*[=:]\s*["']?[\w\-.]{8,}|\bmachine\s+\S+\s+login\s+\S+\s+password\s+\S/im;

/** The text the tool call adds: Write content, Edit/MultiEdit new strings, a notebook cell, a shell command. */
function newText(event: HookEvent): string {
  const input = event.toolInput ?? {};
  const edits = Array.isArray(input.edits) ? (input.edits as Array<{ new_string?: unknown }>) : [];
  return [input.content, input.new_string, input.new_source, input.command, ...edits.map((e) => e.new_string)]
    .filter((x): x is string => typeof x === 'string')
    .join('\n');
}

/** The file holds a credential now, or the change writes one into it. */
function holdsCredentials(abs: string, added: string): boolean {
  if (CREDENTIAL.test(added)) return true;
  try {
    return statSync(abs).size < 1_000_000 && CREDENTIAL.test(readFileSync(abs, 'utf8'));
  } catch {
    return false;
  }
}

/** Judges a file-writing tool call before it runs. Throws when protected.txt cannot be read (fail closed). */
export function validate(event: HookEvent, patterns?: Pattern[]): Verdict {
  const list = patterns ?? loadList(listPath());
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const t of targets(event)) {
    const hit = protectedBy(list, t.rel, t.abs, t.nocase);
    if (!hit || seen.has(t.rel)) continue;
    if (hit.credentials && !holdsCredentials(t.abs, newText(event))) continue;
    seen.add(t.rel);
    violations.push({
      rule: 'protected-file',
      file: t.rel,
      snippet: `${event.tool ?? 'edit'} ${t.rel}`,
      message: `protected by \`${hit.glob}\` (protected.txt line ${hit.line})${hit.reason ? `: ${hit.reason}` : ''}`,
      suggestion:
        "Do not edit this file; tell the user what change is needed and why. To allow it, remove or negate the pattern in the protected-files validator's references/protected.txt.",
    });
  }
  return {
    passed: violations.length === 0,
    violations,
    summary: violations.length
      ? `blocked edit of protected ${violations.length > 1 ? 'files' : 'file'} ${violations.map((v) => v.file).join(', ')}`
      : 'no protected file touched',
  };
}

if (import.meta.main) {
  try {
    const event = JSON.parse(await Bun.stdin.text()) as HookEvent;
    // console.log, not process.stdout.write: initialising Node's stdout stream costs ~10 ms of CPU per run.
    console.log(JSON.stringify(validate(event)));
  } catch (err) {
    console.error(`protected-files: ${(err as Error).message}`);
    process.exit(1);
  }
}
