/**
 * The paths a shell command may not change, as the guard compares them: every agent's hook settings (project, local,
 * user, plugins, the hook files avp writes whole, Codex's `config.toml` whose `hooks` feature switches hooks on),
 * avp's own state (`$AVP_HOME` but its validators and config, which wait for `avp accept`; `.avp/state|cache|logs|
 * trust`), and every `avp` on PATH with the running binary. Each entry carries the reason a refusal gives.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { homedir } from '../os/home.ts';
import { basename, delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { avpHome } from '../paths.ts';
import { PathResolver } from '../os/real-paths.ts';
import { projectHookFiles, projectOwnedHookFiles, userHookFiles, userOwnedHookFiles } from './control-files.ts';

/** A path as the file system compares it: where it really leads (symlinks followed), folded where case is ignored. */
export type Fold = (path: string) => string;

/** One folding per hook call: the resolver caches each `realpath` and case probe across the paths compared. */
export function folding(): Fold {
  const resolver = new PathResolver();
  return (path) => {
    const real = resolver.resolve(path);
    return real.caseInsensitive ? real.path.toLowerCase() : real.path;
  };
}

/**
 * A test of whether `folded` (a path already folded) is one of `paths` once folded, folding only the candidates that
 * could be: a path with nothing at it (no file, folder or symlink) folds to its real folder joined with its own name,
 * so unless that name is `folded`'s (in any case: folding may lowercase) it cannot be `folded`. Most candidates are
 * such paths (every agent's settings files, `avp` in each PATH folder), and resolving each costs more than one
 * `lstat`. What is at each candidate is asked once per test, however many files an event names.
 */
export function foldsTo(paths: string[], fold: Fold): (folded: string) => boolean {
  const present = new Map<string, boolean>();
  const something = (p: string) => {
    let known = present.get(p);
    if (known === undefined) present.set(p, (known = !nothingAt(p)));
    return known;
  };
  return (folded) => {
    const name = basename(folded).toLowerCase();
    return paths.some((p) => (basename(resolve(p)).toLowerCase() === name || something(p)) && fold(p) === folded);
  };
}

/** Nothing at `path`, not even a dangling symlink; a path that cannot be examined counts as something (resolved). */
function nothingAt(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

export function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

/** A file's device and inode (hard links share them), or undefined when it does not exist. */
function identity(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * A path's real form for the table: the deepest existing folder's `realpath` (cached: the ~50 entries share a dozen
 * folders) plus the rest of the name, a symlink's target followed. Cheaper than a full fold of every entry; the path
 * compared with them is folded in full.
 */
function realOf(cache: Map<string, string>): (path: string) => string {
  const real = (path: string, hops: number): string => {
    const known = cache.get(path);
    if (known !== undefined) return known;
    let out: string;
    try {
      out = realpathSync(path);
    } catch {
      const parent = dirname(path);
      let link: string | undefined;
      try {
        link = hops < 8 ? readlinkSync(path) : undefined;
      } catch {
        link = undefined;
      }
      if (link !== undefined) out = real(resolve(dirname(path), link), hops + 1);
      else out = parent === path ? path : join(real(parent, hops), basename(path));
    }
    cache.set(path, out);
    return out;
  };
  return (path) => real(resolve(path), 0);
}

interface Entry {
  /** Folded real path. */
  path: string;
  /** A folder all of whose contents are protected (else one file). */
  area: boolean;
  /** Names under an area that stay writable (avp's validators and config wait for `avp accept` instead). */
  open?: string[];
  why: string;
}

export interface ControlTable {
  /**
   * Why changing `path` (folded) is refused, or undefined. `tree`: the change reaches everything under `path`
   * (`rm -r`, `mv`, `chmod -R`), so a folder holding a control file counts too.
   */
  check(path: string, tree: boolean): string | undefined;
  /** The control paths under folder `path` (folded), for a command that picks files there by name (`find`). */
  within(path: string): string[];
  /** True when folder `path` (folded) directly holds a control file (a bare `settings.json` there is one). */
  holds(path: string): boolean;
  /** Why `path` (folded), an existing file with other hard links, is a control file under another name. */
  sameFile(path: string): string | undefined;
}

/** Every `avp` a hook command may run: each one on PATH, and the binary answering this call. */
export function avpBinaries(env: NodeJS.ProcessEnv): string[] {
  const out = new Set<string>();
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    out.add(join(dir, 'avp'));
    if (process.platform === 'win32') out.add(join(dir, 'avp.exe'));
  }
  // The running binary, when it is avp itself (not bun running the sources or a test runner).
  if (/^avp(\.exe)?$/i.test(basename(process.execPath))) out.add(process.execPath);
  return [...out];
}

/** The control table of one hook call (`projectRoot`, the agent's environment), folded through `fold`. */
export function controlTable(projectRoot: string, env: NodeJS.ProcessEnv): ControlTable {
  // Resolved on first use: most commands write nothing, and folding ~50 paths costs milliseconds on a busy machine.
  let built: Entry[] | undefined;
  const all = () => (built ??= tableEntries(projectRoot, env));
  // `path` arguments come folded (lowercased where their file system ignores case): an entry matches in either form.
  const forms = (e: Entry) => (e.path === e.path.toLowerCase() ? [e.path] : [e.path, e.path.toLowerCase()]);
  return {
    within: (path) => all().flatMap((e) => forms(e).filter((f) => inside(f, path))),
    holds: (path) => all().some((e) => !e.area && forms(e).some((f) => dirname(f) === path)),
    sameFile(path) {
      const id = identity(path);
      if (!id) return undefined;
      return all().find((e) => !e.area && identity(e.path) === id)?.why;
    },
    check(path, tree) {
      for (const e of all())
        for (const f of forms(e)) {
          if (f === path) return e.why;
          if (e.area && inside(path, f) && !e.open?.includes(relative(f, path).split(sep)[0]!)) return e.why;
          // A folder holding a control file: removing, moving or re-moding it reaches the file (when there is one).
          if (tree && inside(f, path) && existsSync(e.path))
            return `it holds ${e.path}, and ${e.why.replace(/^it /, 'that ')}`;
        }
      return undefined;
    },
  };
}

function tableEntries(projectRoot: string, env: NodeJS.ProcessEnv): Entry[] {
  const fold = realOf(new Map());
  const home = env.HOME || homedir();
  const entries: Entry[] = [];
  const file = (path: string, why: string) => entries.push({ path: fold(path), area: false, why });
  for (const f of [...projectHookFiles(projectRoot), ...userHookFiles(env)])
    file(f.path, `${f.key} holds the agent's hook settings, where avp's hooks live`);
  for (const f of [...projectOwnedHookFiles(projectRoot), ...userOwnedHookFiles(env)])
    file(f.path, `${f.key} is avp's hook`);
  const codex = env.CODEX_HOME || join(home, '.codex');
  for (const [key, path] of [
    ['~/.codex/config.toml', join(codex, 'config.toml')],
    ['.codex/config.toml', join(projectRoot, '.codex', 'config.toml')],
  ] as const)
    file(path, `${key} switches Codex's hooks on and off`);
  for (const plugins of [join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'plugins'), join(codex, 'plugins')])
    entries.push({ path: fold(plugins), area: true, why: `${plugins} holds installed plugins and their hooks` });
  entries.push({
    path: fold(avpHome(env)),
    area: true,
    open: ['validators', 'config.json'],
    why: "it is avp's own state (the accepted state, caches, credentials)",
  });
  for (const owned of ['state', 'cache', 'logs', 'trust'])
    entries.push({ path: fold(join(projectRoot, '.avp', owned)), area: true, why: `.avp/${owned} is avp's own state` });
  for (const b of avpBinaries(env).map(fold))
    entries.push({ path: b, area: false, why: `${b} is the avp that agents' hooks run` });
  return entries;
}

/**
 * Names that say a piece of text (interpreter code, a command with a target the guard cannot resolve) is about a
 * control path: the agents' settings folders and files, avp's folders and an `avp` binary.
 */
const CONTROL_NAMES =
  /(?:^|[^\w.-])(?:\.(?:claude|codex|gemini|qwen|factory|cursor|windsurf|kiro|opencode|amp|clinerules|codeium|copilot|avp)(?![\w-])|\.github[/\\]hooks|Cline[/\\]Hooks|(?:opencode|amp)[/\\]plugins)|[/\\]avp(?:\.exe)?(?=$|[\s'"`;|&)<>])/;

/** File names of control files that say nothing on their own (`settings.json`): they count beside control files. */
const BARE_NAMES = /(?:^|[^\w.-])(settings(?:\.local)?\.json|hooks\.json|config\.toml|avp\.(?:json|ts))(?![\w.-])/;

/** The bare control file name `text` mentions (`settings.json`), or undefined. */
export function mentionedBareName(text: string): string | undefined {
  return BARE_NAMES.exec(text)?.[1];
}

/** The control name `text` mentions, or undefined. */
export function mentionedControlName(text: string): string | undefined {
  return CONTROL_NAMES.exec(text)?.[0].replace(/^[^.\w/\\]/, '');
}
