import { AvpError } from '../errors.ts';
import { BudgetExceeded, expandBounded, type RawEntry } from './zip-reader.ts';

/** Is this a gzip stream (`.tar.gz`, `.tgz`)? */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Is this a zip (local file header or an empty archive's end record)? */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

/** Is this an uncompressed tar (ustar magic at offset 257)? */
export function isTar(bytes: Uint8Array): boolean {
  return bytes.length >= 512 && new TextDecoder().decode(bytes.subarray(257, 262)) === 'ustar';
}

const KINDS: Record<string, RawEntry['kind']> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '5': 'directory',
  '1': 'hardlink',
  '2': 'symlink',
  '3': 'device',
  '4': 'device',
  '6': 'fifo',
};

function corrupt(detail: string): AvpError {
  return new AvpError('archive-corrupt', `the tarball is not readable: ${detail}`, {
    fix: 'check that the URL serves a .tar.gz / .tgz / .zip of the validator directory',
  });
}

/** Gunzips under a byte cap, with the same early stop as zip entries (BudgetExceeded past it). */
async function gunzipBounded(input: Uint8Array, limit: number): Promise<Uint8Array> {
  const { Gunzip } = await import('fflate');
  return expandBounded(
    (ondata) => new Gunzip(ondata),
    input,
    limit,
    (why) => corrupt(`invalid gzip data (${why})`),
  );
}

/**
 * Reads a tar or tar.gz (https tarball sources) into the same raw entries as a zip, so the same path and type rules
 * apply. Read by hand: the small tar libraries silently rewrite `../x` or `/etc/x` into harmless names, which would
 * hide exactly the hostile archive that must be refused. The gzip layer is inflated under the expansion cap; a tar
 * is uncompressed, so that bounds every entry too. Handles ustar prefixes, pax `path` records and GNU long names.
 */
export async function readTarEntries(
  bytes: Uint8Array,
  maxExpandedBytes: number,
  maxEntries: number,
): Promise<RawEntry[]> {
  let tar: Uint8Array;
  try {
    tar = isGzip(bytes) ? await gunzipBounded(bytes, maxExpandedBytes) : bytes;
  } catch (e) {
    if (e instanceof BudgetExceeded) throw expandedTooMuch(maxExpandedBytes);
    throw e;
  }
  if (tar.length > maxExpandedBytes) throw expandedTooMuch(maxExpandedBytes);
  const text = new TextDecoder('utf-8', { fatal: false });
  const str = (at: number, len: number) => {
    const field = tar.subarray(at, at + len);
    const nul = field.indexOf(0);
    return text.decode(nul < 0 ? field : field.subarray(0, nul));
  };
  const octal = (at: number, len: number, what: string) => {
    if (tar[at]! & 0x80) throw corrupt(`${what} uses base-256 encoding (over 8 GiB entries are not supported)`);
    const v = str(at, len).trim();
    const n = v === '' ? 0 : Number.parseInt(v, 8);
    if (!Number.isFinite(n) || n < 0 || !/^[0-7]*$/.test(v)) throw corrupt(`bad ${what} field "${v}"`);
    return n;
  };

  const entries: RawEntry[] = [];
  let longName: string | undefined;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = at;
    if (tar.subarray(header, header + 512).every((b) => b === 0)) break; // end of archive
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : tar[header + i]!;
    if (sum !== octal(header + 148, 8, 'checksum')) throw corrupt(`header checksum mismatch at byte ${header}`);
    const size = octal(header + 124, 12, 'size');
    const type = String.fromCharCode(tar[header + 156]!);
    const dataStart = header + 512;
    if (dataStart + size > tar.length) throw corrupt('an entry runs past the end of the archive');
    const data = tar.subarray(dataStart, dataStart + size);
    at = dataStart + Math.ceil(size / 512) * 512;

    let name = str(header, 100);
    const prefix = str(header + 345, 155);
    if (prefix && str(header + 257, 5) === 'ustar') name = `${prefix}/${name}`;
    if (type === 'g') continue; // git archive / GitHub: a global header carrying the commit; names no file
    if (type === 'x') {
      longName = paxPath(text.decode(data)) ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = str(dataStart, size);
      continue;
    }
    if (longName !== undefined) {
      name = longName;
      longName = undefined;
    }
    if (entries.length >= maxEntries) {
      throw new AvpError('archive-too-many-entries', `the tarball has more than ${maxEntries} entries`, {
        fix: 'a validator package should hold a handful of files',
      });
    }
    const kind = KINDS[type] ?? 'other';
    const mode = octal(header + 100, 8, 'mode') & 0o7777;
    entries.push({
      name: kind === 'directory' && !name.endsWith('/') ? `${name}/` : name,
      kind,
      mode,
      declaredSize: size,
      read(budget: number): Uint8Array {
        if (data.length > budget) throw new BudgetExceeded('over budget');
        return data;
      },
    });
  }
  return entries;
}

/** The `path` record of a pax extended header (`"<len> path=<value>\n"` records). */
function paxPath(records: string): string | undefined {
  for (const line of records.split('\n')) {
    const m = /^\d+ path=(.*)$/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** The error for an archive that expands past the cap, shared by zip and tar. */
export function expandedTooMuch(limit: number): AvpError {
  return new AvpError(
    'archive-too-large',
    `the package archive expands past the ${Math.round(limit / 1024 / 1024)} MiB limit`,
    {
      fix: 'a validator package holds text files; remove large or generated files (or it is a zip bomb — do not install it)',
    },
  );
}
