/**
 * Claude Code settings files for `avp init` / `avp deinit`: add or remove avp's hook entries while keeping every
 * other key, hook, comment and byte of formatting. Edits go through jsonc-parser's `modify` (text edits, not a
 * parse-and-reprint), so comments survive, a second `init` changes nothing, and `deinit` after `init` gives back
 * the original text. A file that does not parse is refused with its line and column, never overwritten.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isAvpHookCommand } from '../trust/avp-command.ts';
import {
  applyEdits,
  findNodeAtLocation,
  getNodeValue,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type ParseError,
} from 'jsonc-parser';
import { AvpError } from '../errors.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';

export type SettingsScope = 'project' | 'local' | 'user';

/** Quotes a word for `sh -c` (Claude Code runs hook commands through the shell). */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A program path as a hook command's first word. On Windows, Claude Code runs hooks with Git Bash when it finds it,
 * else with PowerShell or cmd: `C:/Users/me/.avp/bin/avp.exe` (forward slashes, no quotes) is read the same by all
 * three, while `'C:\…'` works only in bash and `& "…"` only in PowerShell. A path with a space must be quoted:
 * `"C:/Program Files/…"` (bash and cmd).
 */
export function commandWord(path: string, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return shellWord(path);
  const slashed = path.replaceAll('\\', '/');
  return /^[A-Za-z0-9_./:@%+=,~-]+$/.test(slashed) ? slashed : `"${slashed}"`;
}

/** The hook command written into the shared settings: it works on every machine that has avp on PATH. */
export function portableHookCommand(agent = 'claude'): string {
  return `avp hook --agent ${agent}`;
}

/**
 * This machine's hook command: the absolute path of the running avp binary (for unshared settings only), or
 * `bun <cli.ts>` when avp runs from source.
 */
export function avpHookCommand(
  agent = 'claude',
  platform: NodeJS.Platform = process.platform,
  execPath = process.execPath,
  main = typeof Bun !== 'undefined' ? Bun.main : '',
): string {
  const fromSource = /\.[cm]?[jt]s$/.test(main);
  const word = (p: string) => commandWord(p, platform);
  const program = fromSource ? `${word(execPath)} ${word(main)}` : word(execPath);
  return `${program} hook --agent ${agent}`;
}

export { isAvpHookCommand };

export interface SettingsFile {
  path: string;
  /** The file's text; `{}` when it does not exist yet. */
  text: string;
  exists: boolean;
  value: Record<string, unknown>;
}

function lineCol(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** Reads and parses a settings file (JSONC: comments and trailing commas allowed). Throws AvpError naming file:line. */
export function readSettings(path: string): SettingsFile {
  if (!existsSync(path)) return { path, text: '{}\n', exists: false, value: {} };
  if (!statSync(path).isFile())
    throw new AvpError('settings-unreadable', `${path} is not a file`, {
      file: path,
      fix: 'move it away and run the command again',
    });
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return { path, text: '{}\n', exists: true, value: {} };
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const e = errors[0]!;
    const { line, column } = lineCol(text, e.offset);
    throw new AvpError(
      'settings-invalid',
      `${basename(path)} is not valid JSON (${printParseErrorCode(e.error)}); avp did not change it`,
      {
        file: path,
        line,
        column,
        fix: 'fix the file (or move it away) and run the command again',
      },
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AvpError('settings-invalid', `${basename(path)} must hold a JSON object; avp did not change it`, {
      file: path,
      line: 1,
      column: 1,
      fix: 'fix the file and run the command again',
    });
  }
  const hooks = (value as Record<string, unknown>).hooks;
  if (hooks !== undefined && (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks))) {
    throw new AvpError('settings-invalid', `"hooks" in ${basename(path)} must be an object; avp did not change it`, {
      file: path,
      fix: 'fix the "hooks" key and run the command again',
    });
  }
  return { path, text, exists: true, value: value as Record<string, unknown> };
}

/** The file's indentation, so inserted entries look like the rest. */
export function formatting(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const m = /\n([ \t]+)\S/.exec(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (m && m[1]!.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: m ? Math.min(m[1]!.length, 8) : 2, eol };
}

interface HookEntry {
  type?: string;
  command?: unknown;
  timeout?: unknown;
}
interface Group {
  matcher?: unknown;
  hooks?: HookEntry[];
}

/**
 * Where a file keeps its events: under `"hooks"` (Claude Code's settings and most agents'), or at the top level
 * (Factory Droid's `hooks.json`, keyed by event name).
 */
export type EventsRoot = 'hooks' | 'top';

function eventsObject(
  value: Record<string, unknown> | undefined,
  root: EventsRoot,
): Record<string, unknown> | undefined {
  if (root === 'top') return value;
  const hooks = value?.hooks;
  return hooks && typeof hooks === 'object' && !Array.isArray(hooks) ? (hooks as Record<string, unknown>) : undefined;
}

function groupsOf(value: Record<string, unknown>, event: string, root: EventsRoot = 'hooks'): Group[] {
  const hooks = eventsObject(value, root);
  const list = hooks?.[event];
  return Array.isArray(list) ? (list as Group[]) : [];
}

/**
 * Adds `value` at the end of the array or object at `path` (with `key` for an object), touching nothing else:
 * jsonc-parser's own insertion re-formats the neighbouring members, which would rewrite the user's compact one-line
 * hook groups (and deinit could then not give the original bytes back).
 */
export function appendMember(
  text: string,
  path: Array<string | number>,
  value: unknown,
  fmt: Fmt,
  key?: string,
): string {
  const tree = parseTree(text, [], { allowTrailingComma: true })!;
  const node = path.length ? findNodeAtLocation(tree, path) : tree;
  const last = node?.children?.[node.children.length - 1];
  if (!node || !last) {
    const target = key === undefined ? path : [...path, key];
    const fallback = key === undefined ? [...((node && getNodeValue(node)) || []), value] : value;
    return applyEdits(text, modify(text, target, fallback, { formattingOptions: fmt }));
  }
  const lineOf = (offset: number) => text.lastIndexOf('\n', offset) + 1;
  const unit = fmt.insertSpaces ? ' '.repeat(fmt.tabSize) : '\t';
  const lastIndent = /^[ \t]*/.exec(text.slice(lineOf(last.offset)))![0];
  // A member on the container's own line (`[{…}]`) gets one level more than that line.
  const indent = lineOf(last.offset) === lineOf(node.offset) ? lastIndent + unit : lastIndent;
  const body = JSON.stringify(value, null, unit).split('\n').join(`${fmt.eol}${indent}`);
  const at = last.offset + last.length;
  return `${text.slice(0, at)},${fmt.eol}${indent}${key === undefined ? '' : `${JSON.stringify(key)}: `}${body}${text.slice(at)}`;
}

export type Fmt = { insertSpaces: boolean; tabSize: number; eol: string };

/**
 * Removes the array element or object property at `path` with the separator next to it, leaving every other byte
 * as it was (so deinit after init restores the file init started from). The last child empties its container.
 */
export function removeAt(text: string, path: Array<string | number>): string {
  const tree = parseTree(text, [], { allowTrailingComma: true })!;
  const key = path[path.length - 1]!;
  const parent = findNodeAtLocation(tree, path.slice(0, -1))!;
  const siblings = parent.children ?? [];
  const index = parent.type === 'array' ? (key as number) : siblings.findIndex((p) => p.children?.[0]?.value === key);
  const el = siblings[index]!;
  if (siblings.length === 1)
    return `${text.slice(0, parent.offset + 1)}${text.slice(parent.offset + parent.length - 1)}`;
  if (index < siblings.length - 1) return `${text.slice(0, el.offset)}${text.slice(siblings[index + 1]!.offset)}`;
  const prev = siblings[index - 1]!;
  return `${text.slice(0, prev.offset + prev.length)}${text.slice(el.offset + el.length)}`;
}

export interface InstallPlan {
  text: string;
  changed: boolean;
  added: string[];
  updated: string[];
}

/**
 * Adds one matcher-less group `{hooks: [{type: "command", command, timeout}]}` per event, or updates avp's existing
 * entry in place (a moved binary, a new timeout). Entries that are already right are left alone.
 */
export function planInstall(
  file: SettingsFile,
  command: string,
  timeout: number,
  events: readonly string[],
  root: EventsRoot = 'hooks',
): InstallPlan {
  let text = file.text;
  const at: string[] = root === 'top' ? [] : ['hooks'];
  const opts = { formattingOptions: formatting(text) };
  const added: string[] = [];
  const updated: string[] = [];
  for (const event of events) {
    const value = parse(text, [], { allowTrailingComma: true }) as Record<string, unknown>;
    const groups = groupsOf(value, event, root);
    let found = false;
    groups.forEach((g, gi) => {
      (Array.isArray(g?.hooks) ? g.hooks : []).forEach((h, hi) => {
        if (found || !isAvpHookCommand(h?.command)) return;
        found = true;
        if (h.command === command && h.timeout === timeout && h.type === 'command') return;
        text = applyEdits(
          text,
          modify(text, [...at, event, gi, 'hooks', hi], { ...h, type: 'command', command, timeout }, opts),
        );
        updated.push(event);
      });
    });
    if (found) continue;
    const entry = { hooks: [{ type: 'command', command, timeout }] };
    const hooks = eventsObject(value, root);
    if (Array.isArray(hooks?.[event])) text = appendMember(text, [...at, event], entry, opts.formattingOptions);
    else if (hooks) text = appendMember(text, at, [entry], opts.formattingOptions, event);
    else text = appendMember(text, [], { [event]: [entry] }, opts.formattingOptions, 'hooks');
    added.push(event);
  }
  return { text, changed: text !== file.text, added, updated };
}

export interface RemovePlan {
  text: string;
  changed: boolean;
  /** `Event` per removed entry. */
  removed: string[];
}

/** Removes avp's entries; a group left empty, an event left empty and a `hooks` object left empty go too. */
export function planRemove(file: SettingsFile, root: EventsRoot = 'hooks'): RemovePlan {
  let text = file.text;
  const removed: string[] = [];
  const at: string[] = root === 'top' ? [] : ['hooks'];
  for (;;) {
    const value = parse(text, [], { allowTrailingComma: true }) as Record<string, unknown>;
    const hooks = eventsObject(value ?? {}, root) ?? {};
    let path: Array<string | number> | undefined;
    for (const event of Object.keys(hooks)) {
      const groups = groupsOf(value, event, root);
      for (let gi = 0; gi < groups.length && !path; gi++) {
        const list = Array.isArray(groups[gi]?.hooks) ? groups[gi]!.hooks! : [];
        const hi = list.findIndex((h) => isAvpHookCommand(h?.command));
        if (hi < 0) continue;
        removed.push(event);
        if (list.length > 1) path = [...at, event, gi, 'hooks', hi];
        else if (groups.length > 1) path = [...at, event, gi];
        else if (root === 'top' || Object.keys(hooks).length > 1) path = [...at, event];
        else path = ['hooks'];
      }
      if (path) break;
    }
    if (!path) break;
    text = removeAt(text, path);
  }
  return { text, changed: text !== file.text, removed };
}

/**
 * Refuses a settings file the user made read-only (no write bit: checked by mode, so it holds for root too): avp
 * never replaces it. Called before anything changes.
 */
export function assertWritable(path: string): void {
  if (!existsSync(path)) return;
  const target = realpathSync(path);
  const mode = statSync(target).mode & 0o7777;
  if ((mode & 0o222) !== 0) return;
  throw new AvpError(
    'settings-read-only',
    `read-only (mode ${mode.toString(8).padStart(4, '0')}); avp did not change it`,
    {
      file: target,
      fix: `make it writable (chmod u+w ${shellWord(target)}) and run the command again, or leave it as it is and use the other settings file (--local or --project)`,
    },
  );
}

/**
 * Writes a settings file atomically (temp + rename in the same directory), creating `.claude/` when needed, with the
 * mode the file had (a 0600 file stays 0600). A symlinked settings file (dotfile managers) is written through the
 * link, not replaced by a plain file. Permission failures say which file and how to fix it.
 */
export function writeSettings(path: string, text: string): void {
  assertWritable(path);
  const target = existsSync(path) ? realpathSync(path) : path;
  const mode = existsSync(target) ? statSync(target).mode & 0o7777 : undefined;
  try {
    mkdirSync(dirname(target), { recursive: true });
    // The mode exactly: the umask would narrow it.
    writeFileAtomic(target, text, mode === undefined ? {} : { mode, exactMode: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw e;
    throw new AvpError('settings-write', `could not be written (${code}); avp did not change it`, {
      file: target,
      fix: `the settings file is replaced by a temporary file renamed over it: check that you own ${shellWord(dirname(target))} and may write there (ls -ld ${shellWord(dirname(target))}; chmod u+w), then run the command again`,
      cause: e,
    });
  }
}

/** The distinct commands of avp's entries in a settings file (empty when it has none or does not exist). */
export function avpCommandsIn(path: string, root: EventsRoot = 'hooks'): string[] {
  const file = readSettings(path);
  const out = new Set<string>();
  for (const event of Object.keys(eventsObject(file.value, root) ?? {})) {
    for (const g of groupsOf(file.value, event, root))
      for (const h of Array.isArray(g?.hooks) ? g.hooks : [])
        if (isAvpHookCommand(h?.command)) out.add(h.command as string);
  }
  return [...out];
}

/** The events whose matcher groups hold one of avp's entries (for `avp doctor`). */
export function avpEventsIn(value: Record<string, unknown>, root: EventsRoot = 'hooks'): string[] {
  return Object.keys(eventsObject(value, root) ?? {}).filter((event) =>
    groupsOf(value, event, root).some(
      (g) => Array.isArray(g?.hooks) && g.hooks.some((h) => isAvpHookCommand(h?.command)),
    ),
  );
}

/** Seconds for the hook entry: above avp's whole-call budget, so avp always answers before Claude Code cancels it. */
export function hookTimeoutFor(budgetMs: number): number {
  return Math.max(120, Math.ceil(budgetMs / 1000) + 30);
}

export interface HookChange {
  path: string;
  /** The file did not exist before. */
  created: boolean;
  changed: boolean;
  added: string[];
  updated: string[];
  removed: string[];
}

/** `avp init`'s settings part: plans the edit, writes it unless `dryRun`. */
export function installHooks(
  path: string,
  command: string,
  timeout: number,
  events: readonly string[],
  dryRun = false,
): HookChange {
  const file = readSettings(path);
  const plan = planInstall(file, command, timeout, events);
  if (plan.changed && !dryRun) writeSettings(path, plan.text);
  return { path, created: !file.exists, changed: plan.changed, added: plan.added, updated: plan.updated, removed: [] };
}

/** `avp deinit`'s settings part. A missing file is nothing to do. */
export function removeHooks(path: string, dryRun = false): HookChange {
  const file = readSettings(path);
  if (!file.exists) return { path, created: false, changed: false, added: [], updated: [], removed: [] };
  const plan = planRemove(file);
  if (plan.changed && !dryRun) writeSettings(path, plan.text);
  return { path, created: false, changed: plan.changed, added: [], updated: [], removed: plan.removed };
}
