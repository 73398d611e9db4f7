/**
 * Rules on files and the machine: recursive deletes (rm, find, shred, mv away), permissions and ownership of
 * system paths, raw disk writes, and commands that stop the machine. Paths are resolved first (./paths.ts).
 */
import { type Ctx, type Finding, finding, flagsOf, hasLong } from './context.ts';
import { catastrophic, deleteVerdict, resolvePath, type Place } from './paths.ts';
import { base, type Command } from './shell.ts';

const DELETE_HINT =
  'Delete only the specific build or cache directory inside the project you mean (e.g. rm -rf ./dist), or ask the user to run this themselves.';

export function checkRm(args: string[], place: Place, ctx: Ctx): Finding | undefined {
  const { short, long, rest } = flagsOf(args);
  if (long.includes('--no-preserve-root'))
    return finding(
      'destructive-delete',
      'rm-no-preserve-root',
      'rm --no-preserve-root disables the safeguard against deleting /',
      DELETE_HINT,
    );
  if (!/[rR]/.test(short) && !long.includes('--recursive')) return checkSystemFiles('rm', rest, place, ctx);
  for (const t of rest) {
    const what = deleteVerdict(t, place, ctx);
    if (what)
      return finding(
        'destructive-delete',
        what.includes('outside the project') ? 'delete-outside-project' : 'rm-recursive',
        `rm -r ${t} would delete ${what}`,
        DELETE_HINT,
      );
  }
  return undefined;
}

/** Deleting or emptying one file of the operating system (`rm /etc/passwd`, `> /etc/hosts`, `truncate -s0 …`). */
export function checkSystemFiles(name: string, targets: string[], place: Place, ctx: Ctx): Finding | undefined {
  for (const t of targets) {
    const r = resolvePath(t, place, ctx);
    // A relative path is judged where it lands too: from `/`, `rm etc/passwd` deletes /etc/passwd.
    if (r && SYSTEM_FILES.test(r.abs))
      return finding(
        'destructive-delete',
        'system-file',
        `${name} ${t} destroys the system file ${r.abs}`,
        'Leave system files to the user or the package manager.',
      );
  }
  return undefined;
}
/** Programs, libraries, the boot tree and the /etc files a machine cannot start or log in without. */
const SYSTEM_FILES =
  /^\/(?:(?:bin|sbin|boot|lib\w*|usr\/(?:bin|sbin|lib\w*)|System)\/.|etc\/(?:passwd|shadow|group|gshadow|sudoers|sudoers\.d\/.+|hosts|fstab|resolv\.conf|hostname|crontab|ssh\/sshd_config|pam\.d\/.+|ld\.so\.\w+)$)/;

/** Tests that narrow what find matches: `find . -name '*.pyc' -delete` is routine, `find . -delete` empties `.`. */
/** `-name '*'` narrows nothing. */
const MATCH_ALL_NAME = /^(?:\*|\*\.\*|\*\*)$/;
const FIND_FILTER =
  /^-(?:i?name|i?path|i?wholename|i?regex|mtime|mmin|atime|amin|ctime|cmin|newer\w*|size|empty|inum|samefile)$/;

/** `find <start>… -delete | -exec rm`: the start directories, judged as recursive deletes. */
export function checkFind(args: string[], place: Place, ctx: Ctx): Finding | undefined {
  const execRm = args.findIndex((a, i) => /^-(?:exec|execdir|ok|okdir)$/.test(a) && base(args[i + 1] ?? '') === 'rm');
  if (!args.includes('-delete') && execRm < 0) return undefined;
  const starts: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') || a === '(' || a === '!') break;
    starts.push(a);
  }
  if (!starts.length) starts.push('.');
  const filtered = args.some((a, i) => FIND_FILTER.test(a) && !MATCH_ALL_NAME.test(args[i + 1] ?? ''));
  for (const s of starts) {
    const r = resolvePath(s, place, ctx);
    if (!r) continue;
    const cat = catastrophic(r, ctx);
    // A filtered find inside the project (`find . -name '*.pyc' -delete`) deletes only what it names.
    const inside = r.below || (ctx.project !== '' && (r.abs === ctx.project || r.abs.startsWith(`${ctx.project}/`)));
    if (filtered && inside && !cat?.includes('.git')) continue;
    const reason = cat ?? (inside ? undefined : deleteVerdict(s, place, ctx));
    if (reason)
      return finding(
        'destructive-delete',
        'find-delete',
        `find ${s} … ${execRm >= 0 ? '-exec rm' : '-delete'} would delete files across ${reason}`,
        'Restrict find to the directory inside the project you mean, with -name/-path tests.',
      );
  }
  return undefined;
}

/** `shred` overwrites files beyond recovery: judged like a recursive delete of each operand. */
export function checkShred(args: string[], place: Place, ctx: Ctx): Finding | undefined {
  for (const t of flagsOf(args).rest.filter((a) => !/^\d+$/.test(a))) {
    const what = deleteVerdict(t, place, ctx);
    if (what)
      return finding('destructive-delete', 'shred', `shred ${t} would destroy ${what} beyond recovery`, DELETE_HINT);
  }
  return undefined;
}

/** `mv ~ /tmp/x`, `mv /etc /etc.old`, `mv * /tmp/`: moving the root, a home, a system directory or the project away. */
export function checkMv(args: string[], place: Place, ctx: Ctx): Finding | undefined {
  // `mv -t DIR src…`: every operand is a source.
  const { short, long, rest } = flagsOf(args.filter((a, i) => !/^(?:-t|--target-directory)$/.test(args[i - 1] ?? '')));
  const intoDir = short.includes('t') || hasLong(long, '--target-directory');
  for (const t of intoDir ? rest : rest.slice(0, -1)) {
    const r = resolvePath(t, place, ctx);
    const what = r && catastrophic(r, ctx);
    if (what)
      return finding('destructive-delete', 'mv-away', `mv ${t} moves ${what} away`, 'Move only the files you mean.');
  }
  return undefined;
}

const WORLD_WRITABLE = (mode: string) =>
  /^0?[0-7]?[0-7]{2}[2367]$/.test(mode) || mode.split(',').some((p) => /^[ugoa]*[ao][ugoa]*[+=][rwxXst]*w/.test(p));

/** `chmod -R 777 x`, `chmod 777 /`, `chmod -R 000 /usr`, `chown -R me /`, `chgrp -R x /etc`. */
export function checkPermissions(w: string[], place: Place, ctx: Ctx): Finding | undefined {
  const name = base(w[0] ?? '');
  if (name !== 'chmod' && name !== 'chown' && name !== 'chgrp') return undefined;
  const { short, long, rest } = flagsOf(w.slice(1));
  const recursive = /R/.test(short) || long.includes('--recursive');
  const mode = rest[0] ?? '';
  const targets = rest.slice(1);
  const systemWide = (t: string) => {
    const r = resolvePath(t, place, ctx);
    // Relative paths are the project's own files (`chown -R $USER .`); the project itself is not a system path.
    if (!r || (r.below && !place.fromCd)) return undefined;
    // The project's own files are not system paths, wherever it lives (`/var/www/app`).
    if (ctx.project && (r.abs === ctx.project || r.abs.startsWith(`${ctx.project}/`))) return undefined;
    const cat = catastrophic(r, ctx);
    return (
      cat ??
      (/^\/(?:bin|boot|etc|lib\w*|sbin|usr|var|System|Library)(?:\/|$)/.test(r.abs)
        ? `system path ${r.abs}`
        : undefined)
    );
  };
  if (name === 'chmod' && WORLD_WRITABLE(mode)) {
    const wide = targets.find(systemWide);
    if (recursive || wide)
      return finding(
        'chmod-world-writable',
        'chmod-world-writable',
        `chmod ${recursive ? '-R ' : ''}${mode} ${wide ?? targets.join(' ')} makes everything under it writable by every user`,
        'Grant only what is needed (e.g. chmod 755 for directories, chmod +x for one script).',
      );
  }
  if (!recursive) return undefined;
  for (const t of targets) {
    const what = systemWide(t);
    if (what)
      return finding(
        'system-permissions',
        `${name}-recursive-system`,
        `${name} -R ${mode} ${t} changes ${name === 'chmod' ? 'the permissions' : 'the owner'} of ${what}, which breaks the system or other users' files`,
        'Change only the files of the project you mean, or ask the user to do it.',
      );
  }
  return undefined;
}

const DEVICE =
  /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|disk\/|rdisk\d|md\d|mapper\/|dm-\d|loop\d|sr\d|root$)/;
const DISK_TOOLS =
  /^(?:mkfs(?:\..+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|cfdisk|parted|sgdisk|gdisk|shred|blkdiscard|cryptsetup|newfs(?:_.+)?|badblocks|hdparm|zpool)$/;

export function checkDisk(w: string[], c: Command): Finding | undefined {
  const name = base(w[0] ?? '');
  const hint = 'Write to an image file (e.g. of=./disk.img) or ask the user to run device operations themselves.';
  for (const r of c.redirects) {
    if (/>/.test(r.op) && r.target === '/proc/sysrq-trigger')
      return finding(
        'machine-stop',
        'sysrq',
        'writing /proc/sysrq-trigger crashes or reboots the machine at once',
        hint,
      );
    if (/>/.test(r.op) && DEVICE.test(r.target))
      return finding(
        'disk-write',
        'redirect-device',
        `redirection into the block device ${r.target} overwrites a disk`,
        hint,
      );
  }
  if (name === 'dd') {
    const of = w.find((a) => a.startsWith('of='))?.slice(3);
    if (of && DEVICE.test(of)) return finding('disk-write', 'dd-device', `dd of=${of} overwrites a disk`, hint);
  }
  if (
    DISK_TOOLS.test(name) ||
    (name === 'diskutil' && /^(?:erase|partition|zero|random|secureErase|reformat)/i.test(w[1] ?? ''))
  ) {
    if (name === 'badblocks' && !w.some((a) => /^-\w*w/.test(a))) return undefined; // read-only scan
    if (w.some((a) => /^(?:--no-act|--help|-l|--list|--dry-run)$/.test(a)) || (name === 'wipefs' && w.includes('-n')))
      return undefined;
    if (name === 'diskutil')
      return finding('disk-write', 'diskutil-erase', `diskutil ${w[1]} erases a whole disk or volume`, hint);
    if (name === 'hdparm' && !w.some((a) => /^--(?:security-erase|trim-sector|write-sector)/.test(a))) return undefined;
    const dev = w.slice(1).find((a) => DEVICE.test(a) || /^disk\d/.test(a) || (name === 'zpool' && a === 'destroy'));
    if (dev)
      return finding(
        'disk-write',
        name,
        `${name} ${w[1] === dev ? '' : '… '}${dev} destroys the data on that device`,
        hint,
      );
  }
  return undefined;
}

/** Commands that take the machine (or every process) down: not for an agent to decide. */
export function checkMachine(w: string[]): Finding | undefined {
  const name = base(w[0] ?? '');
  const hint = 'Ask the user to do this themselves.';
  if (w.includes('--help')) return undefined;
  if (
    /^(?:shutdown|reboot|halt|poweroff)$/.test(name) ||
    (/^(?:init|telinit)$/.test(name) && /^[06]$/.test(w[1] ?? ''))
  )
    return finding('machine-stop', name, `${name} stops the machine every session and service runs on`, hint);
  if (name === 'systemctl' && /^(?:poweroff|reboot|halt|kexec|emergency|rescue)$/.test(w[1] ?? ''))
    return finding('machine-stop', 'systemctl-power', `systemctl ${w[1]} stops the machine`, hint);
  if (name === 'kill' && w.slice(1).includes('-1') && w.slice(1).some((a) => /^-(?:9|KILL|SIGKILL|s)$/.test(a)))
    return finding('machine-stop', 'kill-all', 'kill -9 -1 kills every process of the user, the agent included', hint);
  if (name === 'crontab' && /^-\w*r/.test(w[1] ?? ''))
    return finding(
      'destructive-delete',
      'crontab-remove',
      'crontab -r deletes every scheduled job without asking',
      'Edit the one entry you mean with crontab -e, or ask the user.',
    );
  return undefined;
}
