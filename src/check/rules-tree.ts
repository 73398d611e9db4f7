/**
 * avp's control files as one git revision holds them, written into a private folder that stands in for the project
 * root: the config files (every name the config loader reads), `.avp/validators/**` and the lockfile. `avp check`
 * runs a pull request under its base's rules this way, so a change cannot switch off the check that reviews it.
 *
 * The folder lives under `$AVP_HOME/cache/check-rules/<pid>-…`, is removed when the check ends (also on Ctrl-C, which
 * exits through `process.exit`), and folders of processes that died anyway are swept by the next check.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { AvpError } from '../errors.ts';
import { avpHome } from '../paths.ts';
import { CONFIG_NAME, DOT_CONFIG_NAME } from '../trust/control-files.ts';
import { git } from './git.ts';

/** Generous bounds: a rules folder is a few validators, not a repository. */
const MAX_FILES = 10_000;
const MAX_BYTES = 256 * 1024 * 1024;

/** Whether a project-relative path (forward slashes) is one of the control files `avp check` reads. */
export function isControlFile(rel: string): boolean {
  if (rel.startsWith('.avp/validators/') || rel === '.avp/avp-lock.json') return true;
  const slash = rel.indexOf('/');
  if (slash < 0) return CONFIG_NAME.test(rel) || rel === '.avprc';
  return rel.startsWith('.config/') && !rel.slice(8).includes('/') && DOT_CONFIG_NAME.test(rel.slice(8));
}

interface TreeEntry {
  mode: string;
  object: string;
  /** Relative to the project root. */
  rel: string;
}

/** `git ls-tree -z` lines → entries (blobs and links only; submodules are no control files). */
function parseTree(out: Buffer | undefined): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const line of (out ?? Buffer.alloc(0)).toString('utf8').split('\0')) {
    const m = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (m && m[2] === 'blob') entries.push({ mode: m[1]!, object: m[3]!, rel: m[4]! });
  }
  return entries;
}

/**
 * The control files of `rev` under the project at `prefix` (its path in the repository, '' for the top): the
 * project folder's tree listed as `rev:prefix`, so every path is project-relative. ls-tree takes no globs: the
 * config files are found by listing the folder itself.
 */
function controlEntries(top: string, rev: string, prefix: string): TreeEntry[] {
  const tree = `${rev}:${prefix}`;
  const list = (args: string[]) => parseTree(git(top, ['-c', 'core.quotepath=off', 'ls-tree', '-z', ...args], true));
  const entries = [...list(['-r', tree, '--', '.avp/validators', '.avp/avp-lock.json', '.config']), ...list([tree])];
  // A crafted tree could name `..`; git itself refuses to check such a path out, and so does this.
  return entries.filter(
    (e) => !e.rel.split('/').some((s) => s === '..' || s === '.git' || s === '') && isControlFile(e.rel),
  );
}

/** Every blob's bytes, from one `git cat-file --batch` process. */
function readBlobs(top: string, objects: string[]): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  if (!objects.length) return blobs;
  const out = git(top, ['cat-file', '--batch'], false, Buffer.from(`${objects.join('\n')}\n`))!;
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(10, at);
    const [object, type, size] = out.subarray(at, nl).toString().split(' ');
    if (type !== 'blob')
      throw new AvpError('check-git', `git cat-file could not read ${object}`, { fix: 'run git fsck' });
    const n = Number(size);
    blobs.set(object!, out.subarray(nl + 1, nl + 1 + n));
    at = nl + 1 + n + 1;
  }
  return blobs;
}

/** Removes the rules folders of checks whose process is gone (killed before it could clean up). */
function sweep(parent: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(parent, name), { recursive: true, force: true });
    }
  }
}

/** A revision's control files, materialized; `files` = how many (0: the revision has no avp rules at all). */
export interface RulesTree {
  dir: string;
  files: string[];
  remove(): void;
}

/** Writes the control files of `rev` (project at `prefix` inside the repository at `top`) into a fresh folder. */
export function materializeRules(top: string, rev: string, prefix: string, env: NodeJS.ProcessEnv): RulesTree {
  const entries = controlEntries(top, rev, prefix);
  if (entries.length > MAX_FILES) {
    throw new AvpError('check-rules', `${rev} holds ${entries.length} files of avp rules (at most ${MAX_FILES})`, {
      fix: 'keep large files out of .avp/validators, or run avp check with --rules head',
    });
  }
  const blobs = readBlobs(top, [...new Set(entries.map((e) => e.object))]);
  const bytes = [...blobs.values()].reduce((n, b) => n + b.length, 0);
  if (bytes > MAX_BYTES) {
    throw new AvpError('check-rules', `${rev}'s avp rules take ${bytes} bytes (at most ${MAX_BYTES})`, {
      fix: 'keep large files out of .avp/validators, or run avp check with --rules head',
    });
  }
  const parent = join(avpHome(env), 'cache', 'check-rules');
  mkdirSync(parent, { recursive: true });
  sweep(parent);
  // The real path: validator paths are mapped back to the project by this prefix.
  const dir = realpathSync(mkdtempSync(join(parent, `${process.pid}-`)));
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off('exit', remove);
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', remove);
  try {
    for (const e of entries) {
      const path = join(dir, ...e.rel.split('/'));
      mkdirSync(dirname(path), { recursive: true });
      const data = blobs.get(e.object)!;
      if (e.mode === '120000') symlinkSync(data.toString('utf8'), path);
      else {
        writeFileSync(path, data);
        if (e.mode === '100755') chmodSync(path, 0o755);
      }
    }
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, files: entries.map((e) => e.rel), remove };
}
