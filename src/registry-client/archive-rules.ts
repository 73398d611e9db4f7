import { AvpError } from '../errors.ts';
import type { RawEntry } from './zip-reader.ts';

/** Defaults shared by the client (install) and the server (upload validation). */
export const ARCHIVE_LIMITS = {
  /** The registry's limit on the archive itself. */
  maxCompressedBytes: 10 * 1024 * 1024,
  /** What all entries may expand to, together. */
  maxExpandedBytes: 50 * 1024 * 1024,
  maxEntries: 2000,
};

/** Names never packed, at any depth (the registry's archive rules). */
export function isExcludedName(name: string): boolean {
  return name.startsWith('.') || name === 'target' || name === 'node_modules';
}

function unsafe(entry: string, why: string, fix = 'do not install this package; report it to the registry'): AvpError {
  return new AvpError(
    'archive-unsafe-path',
    `the package archive has an unsafe entry ${JSON.stringify(entry)}: ${why}`,
    { fix },
  );
}

/**
 * Splits an entry name into segments after the path rules: no absolute path, no drive letter, no backslash, no `.`
 * or `..` or empty segment, no control characters. Returns the segments and whether the entry names a directory.
 */
export function entrySegments(name: string): { segments: string[]; isDir: boolean } {
  if (name.length === 0) throw unsafe(name, 'empty name');
  // biome-ignore lint: control characters are exactly what this rejects
  if (/[\u0000-\u001f\u007f]/.test(name)) throw unsafe(name, 'control character in the name');
  if (name.includes('\\'))
    throw unsafe(name, 'backslash in the path (Windows separators can escape the folder on Windows)');
  if (name.startsWith('/')) throw unsafe(name, 'absolute path');
  if (/^[A-Za-z]:/.test(name)) throw unsafe(name, 'drive letter (absolute Windows path)');
  const isDir = name.endsWith('/');
  const segments = (isDir ? name.slice(0, -1) : name).split('/');
  for (const seg of segments) {
    if (seg === '..') throw unsafe(name, '".." segment (zip-slip: it would write outside the install folder)');
    if (seg === '.' || seg === '') throw unsafe(name, 'empty or "." segment');
    // avp also runs on Windows, where these name devices (CON, NUL…) or alternate data streams (`a:b`), or are
    // silently renamed (a trailing dot or space): a package must extract the same everywhere.
    if (/^(?:con|prn|aux|nul|com\d|lpt\d)(?:\..*)?$/i.test(seg))
      throw unsafe(name, `"${seg}" is a reserved device name on Windows`);
    if (/[<>:"|?*]/.test(seg)) throw unsafe(name, 'a character Windows does not allow in file names (< > : " | ? *)');
    if (/[. ]$/.test(seg)) throw unsafe(name, 'a name ending with a dot or a space (Windows drops it)');
  }
  return { segments, isDir };
}

/** A checked entry: path relative to the top folder. */
export interface CheckedEntry {
  raw: RawEntry;
  /** Path under the top folder ('' for the top folder itself). */
  path: string;
  isDir: boolean;
}

/**
 * Applies the structural rules to a whole listing: only regular files and directories, safe paths, one top folder
 * holding everything, no duplicates (also none differing only by case: on macOS and Windows they would overwrite each
 * other), no entry that is both a file and a folder. Returns the top folder and the entries relative to it.
 */
export function checkEntries(entries: RawEntry[]): { top: string; entries: CheckedEntry[] } {
  let top: string | undefined;
  const seen = new Map<string, { path: string; isDir: boolean }>();
  const out: CheckedEntry[] = [];
  for (const raw of entries) {
    if (raw.kind !== 'file' && raw.kind !== 'directory') {
      throw new AvpError(
        'archive-unsafe-entry',
        `the package archive has a ${raw.kind === 'other' ? 'special file' : raw.kind} entry ${JSON.stringify(raw.name)}; only regular files and folders are allowed`,
        { fix: 'do not install this package; a publisher must replace links and special files with regular files' },
      );
    }
    const { segments, isDir: slashDir } = entrySegments(raw.name);
    const isDir = slashDir || raw.kind === 'directory';
    const first = segments[0]!;
    if (top === undefined) top = first;
    if (first !== top || (segments.length === 1 && !isDir)) {
      throw new AvpError(
        'archive-wrong-top',
        `the package archive must hold one top folder with everything inside it, but has ${JSON.stringify(top)} and ${JSON.stringify(raw.name)}`,
        { fix: 'pack the validator directory itself (`avp publish <dir>`), so every entry is `<folder>/…`' },
      );
    }
    const path = segments.slice(1).join('/');
    const key = path.normalize('NFC').toLowerCase();
    const prior = seen.get(key);
    if (prior) {
      if (prior.isDir && isDir) continue; // a directory listed twice is harmless
      const why = prior.path === path ? 'appears twice' : `differs only by case from ${JSON.stringify(prior.path)}`;
      throw new AvpError('archive-duplicate-entry', `the package archive entry ${JSON.stringify(raw.name)} ${why}`, {
        fix: 'do not install this package; a duplicate entry lets one file hide another',
      });
    }
    seen.set(key, { path, isDir });
    out.push({ raw, path, isDir });
  }
  if (top === undefined) {
    throw new AvpError('archive-empty', 'the package archive is empty', {
      fix: 'publish a directory holding VALIDATOR.md',
    });
  }
  // A file whose path is also a folder prefix of another entry cannot be extracted faithfully.
  for (const e of out) {
    const parts = e.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = seen.get(parts.slice(0, i).join('/').normalize('NFC').toLowerCase());
      if (parent && !parent.isDir) {
        throw new AvpError(
          'archive-duplicate-entry',
          `the package archive has ${JSON.stringify(parent.path)} both as a file and as a folder`,
          {
            fix: 'do not install this package',
          },
        );
      }
    }
  }
  return { top, entries: out };
}
