/**
 * Where a shell command's write lands, judged: a control path (or a hard link to one, or a folder whose copied
 * contents would reach one) is refused; a target the guard cannot resolve is refused only when the command names a
 * control path. A refusal is thrown (`Refusal`) and ends the walk over the command (shell-writes.ts).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { mentionedBareName, mentionedControlName } from './control-paths.ts';
import { joined, type Arg } from './shell-commands.ts';
import {
  binaryWhereLost,
  named,
  namedBesidesBinary,
  pathOf,
  shPaths,
  type Context,
  type State,
} from './shell-words.ts';

export class Refusal extends Error {}

/** A command that would hide later edits from avp's change tracking (no control path involved). */
export class HidingRefusal extends Refusal {}

/**
 * Why copying folder `source`'s contents into folder `landing` (folded) reaches a control path: the source holds an
 * entry at a control path's name there, or a non-folder on its way (which would replace the folder holding it).
 */
function contentsReach(landing: string, source: string, ctx: Context): string | undefined {
  for (const c of ctx.table.within(landing)) {
    const rel = relative(landing, c);
    if (!rel) return ctx.table.check(c, false);
    let at = source;
    for (const [k, part] of rel.split(sep).entries()) {
      at = join(at, part);
      let folder: boolean;
      try {
        folder = lstatSync(at).isDirectory();
      } catch {
        break;
      }
      if (!folder || k === rel.split(sep).length - 1)
        return `${source} holds ${rel}, copied over ${c}: ${ctx.table.check(c, false) ?? 'a control path'}`;
    }
  }
  return undefined;
}

/** Refuses when `path` is a control path (or a hard link to one); `from`: only that folder's contents land there. */
function refuseAt(path: string, shown: string, ctx: Context, tree: boolean, what: string, from?: string): void {
  if (/^\/dev\/(?:null|std(?:out|err)|tty|fd\/\d+)$/.test(path)) return;
  ctx.envWrites.target(shown, path);
  const folded = ctx.fold(path);
  const why =
    from !== undefined
      ? (ctx.table.check(folded, false) ?? contentsReach(folded, from, ctx))
      : (ctx.table.check(folded, tree) ?? (links(folded) > 1 ? ctx.table.sameFile(folded) : undefined));
  if (why) throw new Refusal(`it ${what} ${shown}: ${why}`);
}

/** Refuses when `path` is a control path; when it cannot be resolved, when the command names one. */
export function judge(a: Arg, st: State, ctx: Context, tree: boolean, what: string, into?: Arg, from?: Arg): void {
  const shown = into ? `${a.literal}/${basename(into.literal)}` : a.literal;
  const dir = pathOf(a, st);
  const source = into && (into.exact ? into.text : undefined);
  if (dir !== undefined && (!into || source !== undefined)) {
    const contents = from && pathOf(from, st);
    refuseAt(into ? joined(dir, source!) : dir, shown, ctx, tree, what, contents && realOrSelf(contents));
    return;
  }
  ctx.envWrites.target(into ? `${a.literal}/${into.literal}` : a.literal);
  // Unknown only through variables unset in the shell: judged where sh takes it (`$TMPDIR/avp` with TMPDIR unset is
  // `/avp`, a control path only when avp is installed there). The word naming a control folder is still refused.
  const known = shPaths(a, st, into);
  if (known) {
    for (const path of known) refuseAt(path, shown, ctx, tree, what);
    const name = namedBesidesBinary(`${a.literal} ${into?.literal ?? ''}`, st, ctx);
    if (name)
      throw new Refusal(`it ${what} a path the guard cannot resolve before it runs (${a.literal}), naming ${name}`);
    return;
  }
  const name =
    named(`${a.literal} ${into?.literal ?? ''}`, st, ctx) ??
    binaryWhereLost(into ? joined(a.literal, into.literal) : a.literal, st) ??
    named(ctx.command, st, ctx);
  if (name)
    throw new Refusal(
      `it ${what} a path the guard cannot resolve before it runs (${a.literal}), in a command naming ${name}`,
    );
}

/** `path` with its symlinks followed (a source folder is read where it really is). */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** How many names the file at `path` has (a hard link made earlier writes the control file under another name). */
function links(path: string): number {
  try {
    return lstatSync(path).nlink;
  } catch {
    return 0;
  }
}

/** An argument of a program the guard does not know: refused when it is (or, unresolved, names) a control path. */
export function judgeUnknown(a: Arg, st: State, ctx: Context, what: string): void {
  // An option's or a setting's value: after `=` (`--out=PATH`, `make DEST=PATH`), or glued to a short option when
  // it starts like a path (`-o./x`).
  const setting = /^(?:-{1,2}[\w-]+|[A-Za-z_]\w*)=/.exec(a.text);
  const value = setting ? a.text.slice(setting[0].length) : /^-[A-Za-z][./~]/.test(a.text) ? a.text.slice(2) : a.text;
  if (a.exact && (value.startsWith('-') || !value)) return;
  if (!a.exact && a.sh) {
    // Unknown only through variables unset in the shell: as `judge` does, where sh takes it.
    for (const t of a.sh) judgeUnknown({ ...a, text: t, exact: true }, st, ctx, what);
    const besides = namedBesidesBinary(a.literal, st, ctx);
    if (besides) throw new Refusal(`it ${what} ${a.literal}, which names ${besides}`);
    return;
  }
  const name = named(a.literal, st, ctx);
  if (!a.exact) {
    ctx.envWrites.target(a.literal);
    if (name) throw new Refusal(`it ${what} ${a.literal}, which names ${name}`);
    return;
  }
  // A word that does not look like a path (`npm test`, `make build`) is not taken for one: resolving the control
  // table costs milliseconds, and a control file is reached by a path or by one of its own names.
  if (!/[/\\]|^[.~]|^avp(?:\.exe)?$/.test(value) && !mentionedBareName(value)) return;
  const path = pathOf({ ...a, text: value }, st);
  ctx.envWrites.target(a.literal, path);
  if (path === undefined) {
    const lost = name ?? binaryWhereLost(value, st);
    if (lost) throw new Refusal(`it ${what} ${a.literal}, which names ${lost}`);
    return;
  }
  // A control folder itself (`npx rimraf .claude`): the program may change anything it holds. Other folders holding
  // control files (the project, `.`) are what everyday tools are given: only their control paths count.
  const whole = mentionedControlName(basename(path)) !== undefined;
  const why = ctx.table.check(ctx.fold(path), whole);
  if (why) throw new Refusal(`it ${what} ${a.literal}: ${why}`);
}
