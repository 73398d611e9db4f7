/**
 * Path arguments as the file system will see them: `~`, `$HOME`, `${HOME}`, `$PWD`, `.`, `..`, repeated and
 * trailing slashes and globs are resolved before a delete (or chmod, chown, mv) is judged, so `rm -rf //etc`,
 * `/tmp/../etc`, `/etc/..` and `~/..` are seen as what they are. Self-contained (installed with the validator).
 */

/** Where a command runs: the directory, and whether it was set by an absolute `cd` earlier on the same line. */
export interface Place {
  /** Absolute directory, or undefined after `cd "$SOMEWHERE"` (unknown). */
  dir: string | undefined;
  /** True when `dir` comes from an absolute or home-relative `cd` in the command itself (`cd ~ && rm -rf *`). */
  fromCd: boolean;
}

export interface PathCtx {
  project: string;
  home: string;
}

/** Top-level system directories: deleting, moving or re-owning one breaks the machine. */
const SYSTEM_DIRS = new Set(
  (
    'bin boot dev etc home lib lib32 lib64 libx32 opt proc root sbin srv sys usr var mnt media snap nix ' +
    'System Library Users Applications private Volumes cores'
  ).split(' '),
);
/** Trees whose contents belong to the operating system (any path below them is a system path). */
const SYSTEM_TREES = /^\/(?:bin|boot|etc|lib|lib32|lib64|sbin|usr|System|Library|proc|sys|dev)(?:\/|$)/;
/** Scratch space: recursive deletes there are routine. */
const TEMP = /^\/(?:tmp|var\/tmp|private\/tmp|private\/var\/folders|var\/folders|dev\/shm|run\/user\/\d+)(?:\/|$)/;
/** Directory names whose contents are generated and safe to delete wherever they are (`~/.cache/pip`). */
const GENERATED =
  /^(?:\.?cache|caches|Caches|\.?tmp|temp|node_modules|dist|build|out|target|coverage|__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.next|\.nuxt|\.turbo|\.parcel-cache|\.venv|venv|\.tox|\.gradle|DerivedData|\.npm|_cacache|\.pnpm-store|\.yarn|\.bun|\.deno|go-build|Trash|\.Trash|\.?virtualenvs)$/i;

const isGlob = (s: string) => /[*?[]/.test(s);
/** A glob that matches every entry of its directory: `*`, `.*`, `**`, `.[!.]*`, `{*,.*}`. */
const matchesAll = (s: string) => /^(?:\*+|\.\*|\.\[!\.\]\*|\{\*,\.\*\}|\{\.\*,\*\}|\*\.\*)$/.test(s);

/** Home-directory, cwd and project spellings at the start of a word. */
function expand(word: string, place: Place, ctx: PathCtx): string | undefined {
  let p = word;
  const at = (re: RegExp, value: string | undefined) => {
    if (value !== undefined && re.test(p)) p = p.replace(re, value);
  };
  at(/^(?:~|\$HOME|\$\{HOME\}|\$\{HOME:?[-=][^}]*\}|\$\{HOME%\/\}|\$\(echo ~\))(?=\/|$)/, ctx.home);
  at(/^~(?=[a-z_][\w.-]*(?:\/|$))/, '/home/'); // ~user → /home/user (on macOS /Users, judged alike)
  at(/^(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)(?=\/|$)/, '.');
  at(
    /^(?:\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\}|\$GEMINI_PROJECT_DIR|\$\{GEMINI_PROJECT_DIR\})(?=\/|$)/,
    ctx.project || undefined,
  );
  at(/^(?:\$TMPDIR|\$\{TMPDIR\}|\$\{TMPDIR:-[^}]*\})(?=\/|$)/, '/tmp');
  at(/^\$\{?OLDPWD\}?/, '\0');
  // Any other variable or substitution is unknown: the target cannot be judged.
  if (/[$`\0]/.test(p) || (p === '' && word !== '')) return undefined;
  return p;
}

export interface Resolved {
  /** Absolute normalised path; for a match-all glob, the directory whose contents go. */
  abs: string;
  /** The word named a path below the command's directory without climbing out of it (`dist`, `./*`). */
  below: boolean;
  /** A partial glob (`*.log`, `/e*`): some entries of `abs`, not `abs` itself. */
  partial: boolean;
  /** A relative path that climbs above the command's directory (`../other-repo`). */
  climbed: boolean;
}

/** Resolves a path word against the place it runs in; undefined when it depends on an unknown variable. */
export function resolvePath(word: string, place: Place, ctx: PathCtx): Resolved | undefined {
  const p = expand(word, place, ctx);
  if (p === undefined) return undefined;
  const absolute = p.startsWith('/');
  if (!absolute && place.dir === undefined && p.split('/').includes('..')) return undefined;
  const base = absolute ? '' : (place.dir ?? '/\0below');
  const segs: string[] = [];
  for (const s of base.split('/')) if (s) segs.push(s);
  let climbed = false;
  let partial = false;
  let depth = 0;
  for (const s of p.split('/')) {
    if (!s || s === '.') continue;
    if (s === '..') {
      segs.pop();
      if (--depth < 0) climbed = true;
      continue;
    }
    depth++;
    if (isGlob(s)) {
      // Everything after a glob segment lies below what precedes it.
      partial = !matchesAll(s);
      break;
    }
    segs.push(s);
  }
  return { abs: `/${segs.join('/')}`, below: !absolute && !climbed, partial, climbed };
}

const within = (path: string, dir: string) =>
  dir !== '' && (path === dir || path.startsWith(dir === '/' ? '/' : `${dir}/`));
/** `dir` is `path` or one of its ancestors (`/work` holds the project `/work/app`). */
const holds = (dir: string, path: string) => path !== '' && within(path, dir);

/**
 * What deleting (or re-owning) this resolved path destroys, when it is catastrophic: the file system root, a home
 * directory or one above it, a system directory, the project or a directory holding it, or the project's `.git`.
 */
export function catastrophic(r: Resolved, ctx: PathCtx): string | undefined {
  // Below an unknown directory (`/\0below/…`, after `cd "$X"`) only the `.git` rule below can match.
  const { abs } = r;
  if (r.partial) return abs === '/' && !r.below ? 'most of the file system (a glob at /)' : undefined;
  if (abs === '/') return 'the whole file system';
  if (holds(abs, ctx.home) || /^\/(?:home|Users)\/[^/]+$/.test(abs) || abs === '/root') return 'a home directory';
  if (ctx.project && holds(abs, ctx.project))
    return abs === ctx.project ? 'the project directory' : `${abs}, which holds the project`;
  const top = abs.split('/')[1] ?? '';
  if (abs === `/${top}` && SYSTEM_DIRS.has(top)) return `the system directory ${abs}`;
  if (ctx.project && abs === `${ctx.project}/.git`) return "the project's repository history (.git)";
  if (r.below && /(?:^|\/)\.git$/.test(abs)) return 'a repository history (.git)';
  return undefined;
}

/** A generated directory (a cache, node_modules, build output) somewhere on the path: safe to delete anywhere. */
const generated = (abs: string) =>
  abs.split('/').some((s, i) => i > 1 && (GENERATED.test(s) || /cache/i.test(s))) ||
  /^\/var\/lib\/apt\/lists(?:\/|$)/.test(abs);

/**
 * Why a recursive delete of this word must be denied, or undefined. Paths below the command's own directory are
 * judged only for catastrophe (the directory itself, `.git`); absolute and climbing paths also for lying outside
 * the project (`rm -rf ../other-repo`, `rm -rf ~/Documents`) unless they are generated directories, or scratch space
 * named as such (`/tmp/x`; `../x` leaves the project wherever it lives).
 */
export function deleteVerdict(word: string, place: Place, ctx: PathCtx): string | undefined {
  // `rm -rf /$DIR` or `"$DIR"/*` deletes from / when the variable is empty (the classic installer bug).
  if (/^\/\$\{?\w+\}?\/?\*?$/.test(word))
    return `the whole file system if ${word.slice(1).replace(/\/?\*?$/, '')} is empty`;
  const r = resolvePath(word, place, ctx);
  if (!r) return undefined;
  const cat = catastrophic(r, ctx);
  if (cat) return cat;
  if ((r.below && !place.fromCd) || r.abs.includes('\0')) return undefined;
  if ((ctx.project && within(r.abs, ctx.project)) || generated(r.abs)) return undefined;
  const inHome = within(r.abs, ctx.home);
  if (!inHome && !r.climbed && TEMP.test(r.abs)) return undefined;
  if (SYSTEM_TREES.test(r.abs)) return `system files under ${r.abs.split('/').slice(0, 2).join('/')}`;
  if (!ctx.project) return undefined;
  return inHome ? `${r.abs}, outside the project in the home directory` : `${r.abs}, outside the project`;
}

/** The directory a `cd` leads to (undefined: unknown), given where the command line stands. */
export function cdTarget(arg: string | undefined, place: Place, ctx: PathCtx): Place {
  if (arg === undefined) return { dir: ctx.home, fromCd: true };
  if (arg === '-') return { dir: undefined, fromCd: false };
  const r = resolvePath(arg, place, ctx);
  if (!r || r.partial) return { dir: undefined, fromCd: false };
  const absolute = !r.below;
  return { dir: r.abs, fromCd: place.fromCd || absolute };
}
