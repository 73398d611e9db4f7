/**
 * Which validators an event concerns. Synchronous (picomatch and node:path; the disk only to resolve a path a non-file
 * tool names, once per event) so hook mode, `avp check` and tests share one definition:
 *
 * - `trigger` equals the event name.
 * - `match.tools`: each entry is a regular expression anchored over the whole tool name (`^(?:entry)$`),
 *   case-sensitive (canonical tool names are Claude Code's, PascalCase: `write` does not match `Write`). An entry
 *   matches the canonical name (`Write` for Gemini's `write_file`, Droid's `Create`), any further canonical name the
 *   call counts as (a patch that adds a file is also a `Write`) and the agent's own name (`write_file`,
 *   `apply_patch`), so one rule works on every agent and an agent-specific one stays possible. Applies to tool
 *   events; an event without a tool never matches a validator that lists tools.
 * - `match.files`: picomatch globs over the project-relative path (`FileChange.relPath`), dotfiles included. A
 *   pattern without `/` also matches the basename anywhere (`*.ts` matches `src/utils/helper.ts`). `!pattern`
 *   excludes. Paths are real paths (the host adapter follows symlinks: `cc/settings.json` through `cc -> .claude` is
 *   `.claude/settings.json`; a file reached through a symlink to outside the project is outside). On a file system
 *   that ignores case the comparison does too (`.CLAUDE/settings.json` matches `.claude/**`). Files outside the
 *   project match basename patterns, patterns that start with `**` (any depth: `**`, `**\/*`, `**\/*.ts`) and
 *   absolute patterns; a pattern rooted in the project (`src/**`) cannot mean them.
 *   Tool events: at least one changed file must match; a tool that touched no file ignores `files` (Bash with no
 *   detected change, WebFetch). Stop/SubagentStop: at least one file changed in the turn must match (no change → no
 * run).
 *   Other events carry no files: `files` is ignored.
 * - `triggerMatcher`: an anchored regex (`startup|resume`) over `event.matcherValue` for SessionStart, SessionEnd,
 *   Setup, PreCompact, Notification, SubagentStart and SubagentStop; an event without a value does not match.
 * - A RuleSet rule's own `match` (`spec.ruleMatch`, the reference's rule key) narrows its RuleSet's: the tool must
 *   match a pattern of each, and a file must match a glob of each. A reference tool rule (`notRun`) never matches.
 * - `once` is not decided here: matching is stateless, and the hook claims each matched once-validator per session
 *   (src/hook/hook.ts, `onceState`), so that of several racing hook processes exactly one runs it.
 */
import { resolve } from 'node:path';
import picomatch from 'picomatch';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import { isStopTrigger, isToolTrigger } from '../protocol/trigger.ts';
import { relativize } from '../paths.ts';
import { PathResolver } from '../os/real-paths.ts';
import { MATCHER_TRIGGERS, type LoadError, type Validator, type ValidatorSpec } from './types.ts';

// The same lists lint checks against (schema.ts): what lint calls "no effect" is exactly what matching ignores.
const MATCHER_EVENTS = new Set<string>(MATCHER_TRIGGERS);

interface Compiled {
  tools?: RegExp[];
  include?: ((f: FileChange) => boolean)[];
  exclude?: ((f: FileChange) => boolean)[];
  matcher?: RegExp;
  /** A RuleSet rule's own match, which narrows the RuleSet's: both must accept (tools and each file). */
  narrow?: Compiled;
}

// Keyed by the spec object: validators come fresh from the cache each process, and the memo dies with them.
const memo = new WeakMap<ValidatorSpec, Compiled>();

/**
 * An anchored regex. Loading already refuses a validator whose pattern does not compile (a load error, which blocks);
 * the fallback that matches nothing only keeps a hand-built spec (tests, callers) from throwing here.
 */
function anchored(source: string): RegExp {
  try {
    return new RegExp(`^(?:${source})$`);
  } catch {
    return /(?!)/;
  }
}

// One compiled test per glob, shared by every validator that uses it (`**/*.ts` recurs across a catalog).
const globs = new Map<string, (s: string) => boolean>();

/**
 * picomatch's regex with the `s` flag: its `**` is built from `.`, which would otherwise stop at a line break in a
 * folder name (`a\nb/c.ts` escaped `**\/*`). `basename`: match the last segment only.
 */
function glob(pattern: string, basename: boolean, nocase: boolean): (s: string) => boolean {
  const key = `${basename ? 'b' : 'p'}${nocase ? 'i' : 's'}${pattern}`;
  let test = globs.get(key);
  if (test) return test;
  // `windows: false`: paths reach matching with `/` on every OS, so a glob means the same on Windows as elsewhere
  // (picomatch would otherwise switch to Windows rules by the platform it runs on).
  const re = picomatch.makeRe(pattern, { dot: true, nocase, windows: false });
  const dotAll = new RegExp(re.source, re.flags.includes('s') ? re.flags : `${re.flags}s`);
  test = basename ? (s) => dotAll.test(s.slice(s.lastIndexOf('/') + 1)) : (s) => dotAll.test(s);
  globs.set(key, test);
  return test;
}

function globMatcher(pattern: string): (f: FileChange) => boolean {
  // `/srv/**` or, on Windows, `C:/Users/**`: matched against the absolute path (with `/` separators).
  const absolute = pattern.startsWith('/') || /^[A-Za-z]:\//.test(pattern);
  const basenameOnly = !pattern.includes('/');
  // `**`, `**/*`, `**/*.ts`: any depth, so a file outside the project is still "any file".
  const anyDepth = pattern.startsWith('**');
  // Compiled on first need: most calls ask no validator about a file (a Bash call, a tool the validator does not
  // list), and most file systems are case-sensitive.
  return (f) => {
    const isMatch = glob(pattern, basenameOnly, !!f.caseInsensitive);
    const abs = f.path.replaceAll('\\', '/');
    if (absolute) return isMatch(abs);
    if (f.inProject) return isMatch(f.relPath);
    // Outside the project a relative pattern with a folder (`src/**`) cannot mean this file; `*.ts` and `**/*` can.
    if (anyDepth) return isMatch(abs.replace(/^\/+/, ''));
    return basenameOnly && isMatch(abs);
  };
}

function compileMatch(match: ValidatorSpec['match']): Compiled {
  const c: Compiled = {};
  if (match.tools?.length) c.tools = match.tools.map(anchored);
  const files = match.files ?? [];
  const include = files.filter((p) => !p.startsWith('!'));
  const exclude = files.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  if (files.length) {
    // Only exclusions (`!*.md`) means "every file except".
    c.include = include.length ? include.map(globMatcher) : [() => true];
    if (exclude.length) c.exclude = exclude.map(globMatcher);
  }
  return c;
}

function compile(spec: ValidatorSpec): Compiled {
  let c = memo.get(spec);
  if (c) return c;
  c = compileMatch(spec.match);
  if (spec.ruleMatch) {
    const narrow = compileMatch(spec.ruleMatch);
    c.narrow = narrow;
    // Files intersect: one file must pass both lists, so the two become one test.
    if (narrow.include) {
      const own = c.include ? { include: c.include, exclude: c.exclude } : undefined;
      c.include = [(f) => (!own || fileMatches(own, f)) && fileMatches(narrow, f)];
      c.exclude = undefined;
    }
  }
  if (spec.triggerMatcher !== undefined) c.matcher = anchored(spec.triggerMatcher);
  memo.set(spec, c);
  return c;
}

function fileMatches(c: Pick<Compiled, 'include' | 'exclude'>, f: FileChange): boolean {
  return c.include!.some((m) => m(f)) && !(c.exclude?.some((m) => m(f)) ?? false);
}

function toolsMatch(tools: RegExp[], names: string[]): boolean {
  return names.length > 0 && tools.some((r) => names.some((n) => r.test(n)));
}

/**
 * The files a tool event concerns: the changes the host adapter / session tracking found, else the path in the tool
 * input (`file_path`, `notebook_path`) — a PreToolUse Write has not changed anything yet but names its file.
 */
export function toolFiles(event: HookEvent): FileChange[] {
  if (event.files.length > 0) return event.files;
  const input = event.toolInput ?? {};
  const named = [input.file_path, input.notebook_path].find((p): p is string => typeof p === 'string' && p.length > 0);
  if (!named) return [];
  const known = namedFiles.get(event);
  if (known) return known;
  // Resolved as the host adapter does for file tools: `src/../secrets/x` must not slip past `secrets/**`, nor a
  // symlink (`cc -> .claude`) past `.claude/**`.
  const given = resolve(event.cwd, named);
  const real = new PathResolver().resolve(given);
  const change: FileChange = {
    path: real.path,
    ...relativize(real.path, event.projectRoot, real.caseInsensitive),
    kind: 'update',
  };
  if (given !== real.path) change.namedPath = given;
  if (real.caseInsensitive) change.caseInsensitive = true;
  namedFiles.set(event, [change]);
  return [change];
}

/** Every name `match.tools` compares: the canonical tool, its aliases, the agent's own name. */
export function toolNames(event: HookEvent): string[] {
  const names: string[] = [];
  for (const n of [event.tool, ...(event.toolAliases ?? []), event.agentTool])
    if (n && !names.includes(n)) names.push(n);
  return names;
}

// The path a tool input names, resolved once per event (several validators ask).
const namedFiles = new WeakMap<HookEvent, FileChange[]>();

/**
 * True when `v` concerns `event`. `anyFile`: as if a file of the event matched `match.files` — whether `v` could
 * concern a call of this event and tool whatever file it names (the hook shortcut's question).
 */
export function validatorMatches(v: Validator, event: HookEvent, opts: { anyFile?: boolean } = {}): boolean {
  const spec = v.spec;
  if (spec.trigger !== event.event || v.notRun) return false;
  const c = compile(spec);
  if (isToolTrigger(event.event)) {
    if (c.tools || c.narrow?.tools) {
      // Tools intersect: the tool must match one of the RuleSet's patterns and one of the rule's.
      const names = toolNames(event);
      if (c.tools && !toolsMatch(c.tools, names)) return false;
      if (c.narrow?.tools && !toolsMatch(c.narrow.tools, names)) return false;
    }
    if (c.include && !opts.anyFile) {
      const files = toolFiles(event);
      if (files.length > 0 && !files.some((f) => fileMatches(c, f))) return false;
    }
  } else if (isStopTrigger(event.event) && c.include) {
    if (!event.files.some((f) => fileMatches(c, f))) return false;
  }
  if (c.matcher && MATCHER_EVENTS.has(event.event)) {
    if (event.matcherValue === undefined || !c.matcher.test(event.matcherValue)) return false;
  }
  return true;
}

/** The validators that concern `event`, in their given order (`once` is the caller's: see the top of this file). */
export function matchValidators(validators: Validator[], event: HookEvent): Validator[] {
  return validators.filter((v) => validatorMatches(v, event));
}

/**
 * The load errors that concern `event`: those whose trigger equals it, and those whose trigger could not be read
 * (a validator we cannot read might have been meant for any event — fail closed).
 */
export function loadErrorsForEvent(errors: LoadError[], event: HookEvent): LoadError[] {
  return errors.filter((e) => e.trigger === undefined || e.trigger === event.event);
}

/**
 * The files of `event` a validator's `match.files` selects (all of them when it has none): what its judge should look
 * at.
 */
export function matchedFiles(v: Validator, event: HookEvent): FileChange[] {
  const c = compile(v.spec);
  const files = isToolTrigger(event.event) ? toolFiles(event) : event.files;
  return c.include ? files.filter((f) => fileMatches(c, f)) : files;
}
