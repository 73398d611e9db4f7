import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { AvpError } from '../errors.ts';
import { ARCHIVE_LIMITS, checkEntries, entrySegments, isExcludedName } from './archive-rules.ts';
import { readManifest, type PackageManifest } from './manifest.ts';
import { expandedTooMuch, isGzip, isTar, isZip, readTarEntries } from './tar-reader.ts';
import { BudgetExceeded, readZipEntries, type RawEntry } from './zip-reader.ts';

export { ARCHIVE_LIMITS, isExcludedName } from './archive-rules.ts';
export type { PackageManifest } from './manifest.ts';

export type PackageType = 'validator' | 'skill' | 'tool' | 'plugin' | 'agent';

/** A checked package archive: every file in memory, paths relative to the (stripped) top folder. */
export interface ArchiveInfo {
  type: PackageType;
  /** The top folder every entry sat in (not necessarily the package name). */
  top: string;
  /** Regular files only; `mode` holds the permission bits when the archive recorded them (keeps scripts executable). */
  files: Array<{ path: string; data: Uint8Array; mode?: number }>;
  manifest: PackageManifest;
}

export interface InspectOptions {
  /** Cap on the total expanded size (default 50 MiB). */
  maxExpandedBytes?: number;
  /** Cap on the archive itself (default 10 MiB, the registry's limit). */
  maxCompressedBytes?: number;
  maxEntries?: number;
  /** Return skills, tools, plugins and agents instead of refusing them (the server may record their type). */
  allowOtherTypes?: boolean;
  /** The version the registry recorded: it stands in for a manifest's unfilled `{{version}}` template only. */
  registryVersion?: string;
}

/** `sha512-<base64>`: the SRI form the registry publishes and the lockfile records. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

/**
 * Integrity over a tree of files (local directories, git checkouts, the embedded catalog), independent of archive
 * bytes and timestamps: sha512 over each file's path, size and content in path order.
 */
export function treeIntegrity(files: Array<{ path: string; data: Uint8Array }>): string {
  const hash = createHash('sha512');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${f.path}\0${f.data.length}\0`);
    hash.update(f.data);
  }
  return `sha512-${hash.digest('base64')}`;
}

/**
 * Reads and checks a package archive (zip, or tar / tar.gz for URL sources) without touching the disk. Throws an
 * AvpError for anything unsafe or not a validator; the server runs the same checks on every upload.
 */
export async function inspectArchive(bytes: Uint8Array, opts: InspectOptions = {}): Promise<ArchiveInfo> {
  const maxExpanded = opts.maxExpandedBytes ?? ARCHIVE_LIMITS.maxExpandedBytes;
  const maxCompressed = opts.maxCompressedBytes ?? ARCHIVE_LIMITS.maxCompressedBytes;
  const maxEntries = opts.maxEntries ?? ARCHIVE_LIMITS.maxEntries;
  if (bytes.length > maxCompressed) {
    throw new AvpError(
      'archive-too-large',
      `the package archive is ${mib(bytes.length)} MiB (limit ${mib(maxCompressed)} MiB)`,
      {
        fix: 'remove large or generated files from the validator directory',
      },
    );
  }
  let raw: RawEntry[];
  if (isZip(bytes)) raw = await readZipEntries(bytes, maxEntries);
  else if (isGzip(bytes) || isTar(bytes)) raw = stripDotSlash(await readTarEntries(bytes, maxExpanded, maxEntries));
  else {
    throw new AvpError('archive-corrupt', 'the package is not a zip archive (nor a tar / tar.gz)', {
      fix: 'check the URL or registry: it must serve the package ZIP bytes',
    });
  }

  const { top, entries } = checkEntries(raw);
  // Refuse on the declared sizes before inflating anything; the real inflated bytes are counted again below.
  const declared = entries.reduce((n, e) => n + (e.isDir ? 0 : e.raw.declaredSize), 0);
  if (declared > maxExpanded) throw expandedTooMuch(maxExpanded);
  let budget = maxExpanded;
  const files: ArchiveInfo['files'] = [];
  for (const e of entries) {
    if (e.isDir) continue;
    let data: Uint8Array;
    try {
      data = e.raw.read(budget);
    } catch (err) {
      if (err instanceof BudgetExceeded) throw expandedTooMuch(maxExpanded);
      throw err;
    }
    budget -= data.length;
    files.push(e.raw.mode !== undefined ? { path: e.path, data, mode: e.raw.mode } : { path: e.path, data });
  }

  const type = detectType(new Set(files.map((f) => f.path)));
  if (!type) {
    throw new AvpError('archive-no-validator', `the package has no VALIDATOR.md in its top folder "${top}/"`, {
      fix: 'a validator package is a directory holding VALIDATOR.md (plus optional rules/, references/, scripts/)',
    });
  }
  if (type.type !== 'validator' && !opts.allowOtherTypes) {
    throw new AvpError(
      'archive-not-validator',
      `this package is a ${type.type} (it has ${type.marker}), not a validator; avp installs validators only`,
      {
        fix: `install ${type.type}s with the tool made for them; for avp, choose a package holding VALIDATOR.md`,
      },
    );
  }
  const manifest = await manifestOf(type.type, type.marker, files, top, opts.registryVersion);
  return { type: type.type, top, files, manifest };
}

/** Tarballs made with `tar -C dir .` prefix every entry with `./`; the rules then apply to the rest. */
function stripDotSlash(entries: RawEntry[]): RawEntry[] {
  return entries
    .filter((e) => e.name !== './' && e.name !== '.')
    .map((e) => (e.name.startsWith('./') ? { ...e, name: e.name.slice(2) } : e));
}

const MARKERS: Array<[string, PackageType]> = [
  ['VALIDATOR.md', 'validator'],
  ['SKILL.md', 'skill'],
  ['TOOL.md', 'tool'],
  ['.claude-plugin/plugin.json', 'plugin'],
  ['AGENT.md', 'agent'],
];

function detectType(paths: Set<string>): { type: PackageType; marker: string } | undefined {
  for (const [marker, type] of MARKERS) if (paths.has(marker)) return { type, marker };
  return undefined;
}

async function manifestOf(
  type: PackageType,
  marker: string,
  files: ArchiveInfo['files'],
  top: string,
  registryVersion?: string,
): Promise<PackageManifest> {
  const file = files.find((f) => f.path === marker)!;
  const text = new TextDecoder().decode(file.data);
  if (type !== 'plugin') return readManifest(text, `${top}/${marker}`, { registryVersion });
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AvpError('archive-manifest-invalid', `${top}/${marker} is not valid JSON`, {
      fix: 'fix the plugin manifest',
    });
  }
  return readManifest(
    `---\n${JSON.stringify({ name: json.name, version: json.version, description: json.description })}\n---\n`,
    `${top}/${marker}`,
  );
}

/**
 * Packs a validator directory into the registry's zip: every entry under one top folder (the package name), directory
 * entries included, dot-files / `target` / `node_modules` left out at any depth, unix modes kept (executable scripts).
 * The result is checked with `inspectArchive`, so what publish uploads is what the server and `avp add` accept.
 */
export async function packDirectory(
  dir: string,
): Promise<{ bytes: Uint8Array; files: string[]; manifest: PackageManifest }> {
  const root = resolve(dir);
  const st = statSync(root, { throwIfNoEntry: false });
  if (!st?.isDirectory()) {
    throw new AvpError('publish-not-a-directory', `${root} is not a directory`, {
      fix: 'pass the validator directory (the one holding VALIDATOR.md)',
    });
  }
  const validatorMd = join(root, 'VALIDATOR.md');
  if (!statSync(validatorMd, { throwIfNoEntry: false })?.isFile()) {
    throw new AvpError('publish-no-validator', `${root} has no VALIDATOR.md`, {
      fix: 'publish a directory validator: `<name>/VALIDATOR.md` (a single-file validator `name.md` goes into `name/VALIDATOR.md`)',
      file: validatorMd,
    });
  }
  const manifest = await readManifest(readFileSync(validatorMd, 'utf8'), validatorMd);
  const { zipSync } = await import('fflate');
  const top = manifest.name;
  // Fixed timestamp: packing the same tree twice gives the same bytes (on one machine; zip times are local time).
  const mtime = new Date(2000, 0, 1);
  type ZipEntry = [Uint8Array, { os: number; attrs: number; mtime: Date; level?: 0 | 6 }];
  const zippable: Record<string, ZipEntry> = {};
  // A directory entry: unix mode 040755 in the high half of the external attributes, plus the DOS directory bit.
  const dirEntry = (): ZipEntry => [
    new Uint8Array(0),
    { os: 3, attrs: ((0o040755 << 16) >>> 0) | 0x10, mtime, level: 0 },
  ];
  zippable[`${top}/`] = dirEntry();
  const files: string[] = [];
  for (const rel of walk(root)) {
    const abs = join(root, rel);
    const s = statSync(abs);
    const name = `${top}/${rel.split(sep).join('/')}`;
    if (s.isDirectory()) {
      zippable[`${name}/`] = dirEntry();
    } else {
      const mode = s.mode & 0o111 ? 0o100755 : 0o100644;
      zippable[name] = [new Uint8Array(readFileSync(abs)), { os: 3, attrs: (mode << 16) >>> 0, mtime, level: 6 }];
      files.push(rel.split(sep).join('/'));
    }
  }
  const bytes = zipSync(zippable as Parameters<typeof zipSync>[0]);
  await inspectArchive(bytes);
  return { bytes, files, manifest };
}

/** Files and folders under `root` in sorted order, skipping excluded names and refusing links and special files. */
function walk(root: string, rel = ''): string[] {
  const out: string[] = [];
  const entries = readdirSync(join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const d of entries) {
    if (isExcludedName(d.name)) continue;
    const child = rel ? join(rel, d.name) : d.name;
    if (d.isSymbolicLink()) {
      throw new AvpError(
        'publish-symlink',
        `${join(root, child)} is a symbolic link; packages hold regular files only`,
        {
          fix: 'replace the link with a copy of the file, or move it out of the validator directory',
          file: join(root, child),
        },
      );
    }
    if (d.isDirectory()) out.push(child, ...walk(root, child));
    else if (d.isFile()) out.push(child);
    else {
      throw new AvpError('publish-special-file', `${join(root, child)} is not a regular file`, {
        fix: 'remove it from the validator directory',
        file: join(root, child),
      });
    }
  }
  return out;
}

/**
 * Writes a checked archive's files under `destDir` (created; must be empty). Paths are re-checked here too, every
 * file is created exclusively (`wx`: an existing file or planted symlink makes it fail instead of being followed).
 */
export async function extractArchive(info: ArchiveInfo, destDir: string): Promise<void> {
  const root = resolve(destDir);
  mkdirSync(root, { recursive: true });
  if (readdirSync(root).length > 0) {
    throw new AvpError('extract-not-empty', `${root} is not empty`, { fix: 'extract into a fresh directory' });
  }
  for (const f of info.files) {
    entrySegments(f.path);
    const target = resolve(root, f.path);
    if (!target.startsWith(root + sep) || relative(root, target).startsWith('..')) {
      throw new AvpError('archive-unsafe-path', `refusing to write ${JSON.stringify(f.path)} outside ${root}`, {
        fix: 'do not install this package',
      });
    }
    mkdirSync(dirname(target), { recursive: true });
    // Archives made on Windows carry no unix modes: a script with a shebang under scripts/ is still meant to run.
    const shebangScript =
      f.mode === undefined && f.path.startsWith('scripts/') && f.data[0] === 0x23 && f.data[1] === 0x21;
    const exec = (f.mode !== undefined && (f.mode & 0o111) !== 0) || shebangScript;
    writeFileSync(target, f.data, { flag: 'wx', mode: exec ? 0o755 : 0o644 });
  }
}

function mib(n: number): string {
  return (n / 1024 / 1024).toFixed(1).replace(/\.0$/, '');
}
