/**
 * What each file-changing command writes, from its arguments (already expanded by the guard): the targets of `cp`,
 * `mv`, `rm`, `ln`, `install`, `rsync`, `tee`, `sed -i`, `perl -i`, `truncate`, `dd of=`, `chmod`/`chown`, `git
 * checkout|restore`, `find -delete` … and whether the change reaches a whole tree (`rm -r`, `mv`, `chmod -R`).
 * Commands not listed here are judged by the guard itself (readers pass; anything else naming a control path is
 * refused).
 */
import { nodeOs } from '../os/home.ts';
import { basename, join } from 'node:path';

/** One expanded argument: its text, and whether that text is what the shell will pass (no unknown expansion). */
export interface Arg {
  text: string;
  exact: boolean;
  /** What sh would see without expansions (for messages and the "names a control path" test). */
  literal: string;
  /**
   * Not exact only through variables unset in the agent's environment and set nowhere in the command: what sh makes
   * of the word then (each unset, or its `${X:-word}` word), one entry per brace or glob result.
   */
  sh?: string[];
}

/** A path a command changes: `arg` resolved against the cwd (`join` adds a source's name to a folder target). */
export interface Write {
  arg: Arg;
  join?: Arg;
  tree: boolean;
  /**
   * A copy of a folder's contents (`cp -r SRC DEST`, `rsync -a SRC/ DEST`): only the names `from` holds land under
   * the written folder, so the tree it reaches is the source's, not everything under the destination.
   */
  from?: Arg;
}

export interface CommandContext {
  /** True when `arg` names an existing folder (a copy into it lands under the source's name). */
  isDir(arg: Arg): boolean;
}

/** Commands that only read the files they name (writes through their redirections are judged separately). */
export const READERS = new Set(
  (
    'cat head tail less more grep egrep fgrep rg ag ack ls ll dir stat file wc jq diff cmp colordiff md5sum sha1sum ' +
    'sha256sum sha512sum b2sum cksum sum test [ [[ echo printf realpath readlink dirname basename tree du df pwd ' +
    'which type whereis command-v true false nl od xxd hexdump strings sort uniq cut tr column bat view fold fmt ' +
    'comm join paste expand unexpand rev tac look sleep date env-print id whoami hostname uname exit return'
  ).split(' '),
);

/** Commands that run the rest of their arguments as a command (`sudo rm …`): the guard judges that command. */
export const WRAPPER_OPTS: Record<string, RegExp> = {
  // options that take a value, per wrapper
  sudo: /^-[ugCDhpTrt]$/,
  doas: /^-[uC]$/,
  env: /^-[uCS]$/,
  nice: /^-n$/,
  ionice: /^-[cnpt]$/,
  timeout: /^-[sk]$/,
  stdbuf: /^-[ioe]$/,
  nohup: /^$/,
  setsid: /^$/,
  time: /^-[fo]$/,
  command: /^$/,
  builtin: /^$/,
  exec: /^-a$/,
  chronic: /^$/,
  unbuffer: /^$/,
  caffeinate: /^$/,
  chrt: /^$/,
  taskset: /^$/,
  'systemd-run': /^-[pEu]$/,
  flatpak: /^$/,
  xargs: /^-[IiLnPsdEa]$/,
  watch: /^-[nd]$/,
};

/** Non-option arguments anywhere (GNU tools take options after operands too); `--` ends options. */
function operands(args: Arg[], valued: RegExp = /^$/): { flags: string[]; ops: Arg[]; values: Map<string, Arg> } {
  const flags: string[] = [];
  const ops: Arg[] = [];
  const values = new Map<string, Arg>();
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (ended || !a.text.startsWith('-') || a.text === '-') ops.push(a);
    else if (a.text === '--') ended = true;
    else {
      flags.push(a.text);
      if (valued.test(a.text) && i + 1 < args.length) values.set(a.text, args[++i]!);
    }
  }
  return { flags, ops, values };
}

/** `chown`'s owner operand names the user running the command (`$USER`, their name or uid; `$(whoami)` expanded). */
function ownerIsSelf(owner: string): boolean {
  const user = owner.split(/[:.]/)[0]!;
  const self = nodeOs().userInfo();
  return ['$USER', '${USER}', self.username, String(self.uid)].includes(user);
}

const has = (flags: string[], short: string, long: string[] = []) =>
  flags.some(
    (f) => (/^-[^-]/.test(f) && f.slice(1).includes(short)) || long.some((l) => f === l || f.startsWith(`${l}=`)),
  );

const longValue = (flags: string[], name: string): string | undefined =>
  flags.find((f) => f.startsWith(`${name}=`))?.slice(name.length + 1);

const arg = (text: string): Arg => ({ text, exact: true, literal: text });

/** `cp`/`mv`/`install`/`ln`: sources into a destination (a folder: each under its own name). */
function copyLike(args: Arg[], ctx: CommandContext, valued: RegExp, tree: boolean, moves: boolean): Write[] {
  const { flags, ops, values } = operands(args, valued);
  const targetDir =
    values.get('-t') ??
    (longValue(flags, '--target-directory') !== undefined ? arg(longValue(flags, '--target-directory')!) : undefined);
  const noDir = has(flags, 'T', ['--no-target-directory']);
  const sources = targetDir ? ops : ops.slice(0, -1);
  const dest = targetDir ?? ops[ops.length - 1];
  const out: Write[] = moves ? sources.map((s) => ({ arg: s, tree: true })) : [];
  if (!dest) return out;
  if (!targetDir && ops.length === 1) return out; // `ln -s target`: the link is ./name, judged below
  const intoDir = !noDir && (!!targetDir || sources.length > 1 || dest.text.endsWith('/') || ctx.isDir(dest));
  // A recursive copy (not a move) adds the source's contents to what is there: judged by what the source holds.
  const from = (s: Arg) => (tree && !moves && ctx.isDir(s) ? { from: s } : {});
  if (intoDir) for (const s of sources) out.push({ arg: dest, join: s, tree, ...from(s) });
  else out.push({ arg: dest, tree, ...(sources.length === 1 ? from(sources[0]!) : {}) });
  return out;
}

/** The writes of one command (`name` without its path), or undefined when `name` is not a file-changing command. */
export function commandWrites(name: string, args: Arg[], ctx: CommandContext): Write[] | undefined {
  switch (name) {
    case 'cp': {
      const { flags } = operands(args, /^-[tS]$/);
      const tree = has(flags, 'r') || has(flags, 'R', ['--recursive']) || has(flags, 'a', ['--archive']);
      return copyLike(args, ctx, /^-[tS]$/, tree, false);
    }
    case 'mv':
      return copyLike(args, ctx, /^-[tS]$/, true, true);
    case 'install': {
      // Valued: -t DIR, -S SUFFIX, -m MODE, -o OWNER, -g GROUP (`-C` compares, it takes no value). `-d` makes each
      // operand a folder, as mkdir does.
      const { flags, ops } = operands(args, /^-[tSmog]$/);
      if (has(flags, 'd', ['--directory'])) return ops.map((a) => ({ arg: a, tree: false }));
      return copyLike(args, ctx, /^-[tSmog]$/, false, false);
    }
    case 'ln': {
      const { ops } = operands(args, /^-[tS]$/);
      const writes = copyLike(args, ctx, /^-[tS]$/, true, false);
      if (ops.length === 1) writes.push({ arg: arg('.'), join: ops[0]!, tree: true });
      // A link made to a control path is a handle for writing it later: as good as writing it.
      return [...writes, ...ops.slice(0, ops.length === 1 ? 1 : -1).map((a) => ({ arg: a, tree: false }))];
    }
    case 'rsync': {
      const { ops, flags } = operands(args, /^-[eTf]$/);
      const local = ops.filter((o) => !/^[^/]*:/.test(o.text));
      const dest = local[local.length - 1];
      if (!dest || local.length < 2) return [];
      // Without --delete, rsync adds the source's contents: judged by what the source holds.
      const adds = (s: Arg) => (flags.some((f) => f.startsWith('--del')) || !ctx.isDir(s) ? {} : { from: s });
      const out: Write[] = local
        .slice(0, -1)
        .map((s) =>
          s.text.endsWith('/') ? { arg: dest, tree: true, ...adds(s) } : { arg: dest, join: s, tree: true, ...adds(s) },
        );
      if (flags.includes('--remove-source-files')) out.push(...local.slice(0, -1).map((s) => ({ arg: s, tree: true })));
      return out;
    }
    case 'rm':
    case 'shred':
    case 'unlink':
    case 'rmdir':
    case 'srm':
    case 'trash':
    case 'trash-put':
      return operands(args).ops.map((a) => ({ arg: a, tree: true }));
    case 'touch':
    case 'tee':
    case 'sponge':
    case 'truncate':
      return operands(args, /^-[srdt]$/).ops.map((a) => ({ arg: a, tree: false }));
    case 'chmod':
    case 'chown':
    case 'chgrp':
    case 'chattr':
    case 'setfacl': {
      const { ops, flags } = operands(args, name === 'setfacl' ? /^-[mMxX]$/ : /^$/);
      const tree = has(flags, 'R', ['--recursive']);
      // A mode that only adds permissions (`+x`, `777`), or touches only the group's and others' bits (`go-w`,
      // `o=`), cannot lock avp out of its files or stop its binary running: avp runs as their owner.
      const mode = ops[0]?.text ?? '';
      if (name === 'chmod' && /^(?:[ugoa]*\+[rwxXst]+(?:,[ugoa]*\+[rwxXst]+)*|0?7[0-7]{2})$/.test(mode)) return [];
      if (name === 'chmod' && /^[go]+[-+=][rwxXst]*(?:,[go]+[-+=][rwxXst]*)*$/.test(mode)) return [];
      // A group change, or giving the files to the user who runs the command (`chown -R $USER .`), leaves the
      // owner's access — avp's — as it was.
      if (name === 'chgrp') return [];
      const owner = ops[0];
      if (name === 'chown' && owner && (ownerIsSelf(owner.literal) || (owner.exact && ownerIsSelf(owner.text))))
        return [];
      // The mode or owner operand names no path of its own, so every operand is judged as one.
      return ops.map((a) => ({ arg: a, tree }));
    }
    case 'dd':
      return args
        .filter((a) => a.text.startsWith('of='))
        .map((a) => ({ arg: { ...a, text: a.text.slice(3) }, tree: false }));
    case 'sed':
    case 'gsed': {
      const { flags, ops, values } = operands(args, /^-[ef]$/);
      if (!flags.some((f) => /^-[^-]*i/.test(f) || f.startsWith('--in-place'))) return [];
      const script = values.has('-e') || values.has('-f') || flags.some((f) => f.startsWith('--expression'));
      return ops.slice(script ? 0 : 1).map((a) => ({ arg: a, tree: false }));
    }
    case 'perl':
    case 'ruby': {
      const { flags, ops, values } = operands(args, /^-[eEIrM]$/);
      if (!flags.some((f) => /^-[^-]*i/.test(f))) return [];
      const script = values.has('-e') || values.has('-E') || flags.some((f) => /^-[^-]*e$/.test(f));
      return ops.slice(script ? 0 : 1).map((a) => ({ arg: a, tree: false }));
    }
    case 'yq': {
      const { flags, ops } = operands(args);
      return has(flags, 'i', ['--inplace']) ? ops.slice(1).map((a) => ({ arg: a, tree: false })) : [];
    }
    case 'curl':
    case 'wget':
    case 'sort': {
      const valued = name === 'curl' ? /^-[oXHdu]$|^--output$/ : name === 'wget' ? /^-O$|^--output-document$/ : /^-o$/;
      const { flags, values } = operands(args, valued);
      const out = values.get('-o') ?? values.get('-O') ?? values.get('--output') ?? values.get('--output-document');
      const long = longValue(flags, '--output') ?? longValue(flags, '--output-document');
      return [...(out ? [{ arg: out, tree: false }] : []), ...(long ? [{ arg: arg(long), tree: false }] : [])];
    }
    case 'patch':
    case 'ed':
    case 'ex':
    case 'vi':
    case 'vim':
    case 'nvim':
      return operands(args, /^-[cpiorsSu]$/).ops.map((a) => ({ arg: a, tree: false }));
    default:
      return undefined;
  }
}

/**
 * `git [-C dir] <sub> …`: the paths `checkout`, `restore`, `rm`, `mv`, `clean -x` change; `hides`: the flag of a
 * `git update-index` that makes git report files unchanged whatever is written to them (avp learns what a shell
 * command and a turn changed from git, so a file marked that way would keep its edits from every check).
 */
export function gitWrites(args: Arg[]): { cwd?: Arg; writes: Write[]; hides?: string } {
  let i = 0;
  let cwd: Arg | undefined;
  while (i < args.length && args[i]!.text.startsWith('-')) {
    if (['-C', '-c', '--git-dir', '--work-tree'].includes(args[i]!.text)) {
      if (args[i]!.text === '-C') cwd = args[i + 1];
      i += 2;
    } else i++;
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1);
  switch (sub) {
    case 'checkout':
    case 'restore':
    case 'rm':
    case 'mv': {
      const { ops } = operands(rest, /^-[sbB]$|^--source$/);
      return { cwd, writes: ops.map((a) => ({ arg: a, tree: sub === 'rm' || sub === 'mv' })) };
    }
    case 'clean': {
      const { ops, flags } = operands(rest, /^-e$/);
      // Ignored files too (`-x`, `-X`): `.claude/settings.local.json` and avp's state are usually git-ignored.
      // A dry run (`-n`, `--dry-run`) only lists them.
      if (!has(flags, 'x') && !has(flags, 'X')) return { cwd, writes: [] };
      if (has(flags, 'n', ['--dry-run'])) return { cwd, writes: [] };
      return { cwd, writes: (ops.length ? ops : [arg('.')]).map((a) => ({ arg: a, tree: true })) };
    }
    case 'update-index': {
      const hides = rest.find((a) => a.text === '--assume-unchanged' || a.text === '--skip-worktree');
      return { cwd, writes: [], ...(hides ? { hides: hides.text } : {}) };
    }
    default:
      return { cwd, writes: [] };
  }
}

/** Where `join` leads: the folder `dest` with the source's last name. */
export function joined(dest: string, source: string): string {
  return join(dest, basename(source.replace(/\/+$/, '')));
}
