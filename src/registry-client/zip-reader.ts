import { AvpError } from '../errors.ts';

/** One archive entry as read from a container (zip or tar), before any path or type rule is applied. */
export interface RawEntry {
  /** The name exactly as stored (directories end with `/` in zip). */
  name: string;
  kind: 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'socket' | 'other';
  /** Unix permission bits when the archive carries them. */
  mode?: number;
  /** Size the archive claims the entry expands to (checked against the real inflated size). */
  declaredSize: number;
  /**
   * Inflates the entry; `budget` is the number of bytes it may still produce before the whole archive is over the cap.
   */
  read(budget: number): Uint8Array;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const UNIX = 3;
const S_IFMT = 0o170000;

/** Maps the unix file type bits of a zip entry made on unix; 0 means "not recorded" (treated by the name). */
function unixKind(mode: number): RawEntry['kind'] | undefined {
  switch (mode & S_IFMT) {
    case 0:
      return undefined;
    case 0o100000:
      return 'file';
    case 0o040000:
      return 'directory';
    case 0o120000:
      return 'symlink';
    case 0o020000:
    case 0o060000:
      return 'device';
    case 0o010000:
      return 'fifo';
    case 0o140000:
      return 'socket';
    default:
      return 'other';
  }
}

function corrupt(detail: string): AvpError {
  return new AvpError('archive-corrupt', `the package archive is not a readable zip file: ${detail}`, {
    fix: 'republish the package with `avp publish` (it writes a standard deflate zip)',
  });
}

/**
 * Reads a zip's central directory by hand, because fflate's unzip hides what safety needs: the "version made by"
 * host and external attributes (symlinks), the declared sizes before inflating (zip bombs), and it silently keeps the
 * last of two entries with the same name. Data is inflated lazily, entry by entry, under a byte budget.
 */
export async function readZipEntries(bytes: Uint8Array, maxEntries: number): Promise<RawEntry[]> {
  const { Inflate } = await import('fflate');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);

  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
    if (u32(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw corrupt('no end-of-central-directory record (truncated download or not a zip)');
  const count = u16(eocd + 10);
  const cdSize = u32(eocd + 12);
  const cdOffset = u32(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff)
    throw corrupt('zip64 archives are not supported (a validator package is small)');
  if (u16(eocd + 4) !== 0 || u16(eocd + 6) !== 0) throw corrupt('multi-disk archives are not supported');
  if (count > maxEntries) {
    throw new AvpError('archive-too-many-entries', `the package archive has ${count} entries (limit ${maxEntries})`, {
      fix: 'a validator package should hold a handful of files; remove generated or vendored files before publishing',
    });
  }
  if (cdOffset + cdSize > eocd) throw corrupt('central directory out of bounds');

  const decoder = new TextDecoder('utf-8', { fatal: false });
  const entries: RawEntry[] = [];
  const spans: Array<{ start: number; end: number; descriptor: boolean; name: string }> = [];
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || u32(at) !== CENTRAL) throw corrupt(`bad central directory entry #${i + 1}`);
    const madeBy = u16(at + 4) >> 8;
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const crc = u32(at + 16);
    const compressedSize = u32(at + 20);
    const size = u32(at + 24);
    const nameLen = u16(at + 28);
    const extraLen = u16(at + 30);
    const commentLen = u16(at + 32);
    const external = u32(at + 38);
    const localOffset = u32(at + 42);
    const rawName = bytes.subarray(at + 46, at + 46 + nameLen);
    const name = decoder.decode(rawName);
    at += 46 + nameLen + extraLen + commentLen;

    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff)
      throw corrupt('zip64 entries are not supported');
    if (flags & 1) throw corrupt(`entry "${name}" is encrypted`);
    if (method !== 0 && method !== 8)
      throw corrupt(`entry "${name}" uses compression method ${method} (only stored and deflate are allowed)`);

    // Local header: the name there must match, or two zip readers could see two different archives.
    if (localOffset + 30 > bytes.length || u32(localOffset) !== LOCAL)
      throw corrupt(`entry "${name}" has no local header`);
    const localNameLen = u16(localOffset + 26);
    const localExtraLen = u16(localOffset + 28);
    const localName = decoder.decode(bytes.subarray(localOffset + 30, localOffset + 30 + localNameLen));
    if (localName !== name) throw corrupt(`entry "${name}" is named "${localName}" in its local header`);
    const dataStart = localOffset + 30 + localNameLen + localExtraLen;
    if (dataStart + compressedSize > bytes.length) throw corrupt(`entry "${name}" runs past the end of the archive`);

    const mode = madeBy === UNIX ? external >>> 16 : undefined;
    const dosDirectory = (external & 0x10) !== 0;
    const kind =
      (mode !== undefined ? unixKind(mode) : undefined) ?? (name.endsWith('/') || dosDirectory ? 'directory' : 'file');
    const data = bytes.subarray(dataStart, dataStart + compressedSize);

    spans.push({ start: localOffset, end: dataStart + compressedSize, descriptor: (flags & 8) !== 0, name });
    entries.push({
      name,
      kind,
      mode: mode !== undefined && mode !== 0 ? mode & 0o7777 : undefined,
      declaredSize: size,
      read(budget: number): Uint8Array {
        if (method === 0) {
          if (data.length !== size)
            throw corrupt(`entry "${name}" is stored with ${data.length} bytes but declares ${size}`);
          if (size > budget) throw overBudget();
          return checkCrc(name, data, crc);
        }
        const out = expandBounded(
          (ondata) => new Inflate(ondata),
          data,
          Math.min(budget, size),
          (why) => corrupt(`invalid deflate data (${why})`),
          () =>
            budget < size
              ? overBudget()
              : new AvpError(
                  'archive-size-mismatch',
                  `the package archive entry "${name}" inflates past its declared size of ${size} bytes (a zip bomb or a corrupt archive)`,
                  {
                    fix: 'do not install this package; report it to the registry',
                  },
                ),
        );
        if (out.length !== size) throw corrupt(`entry "${name}" inflates to ${out.length} bytes but declares ${size}`);
        return checkCrc(name, out, crc);
      },
    });
  }
  checkLayout(spans, cdOffset, u32);
  return entries;
}

/**
 * The listed entries must tile the bytes before the central directory exactly: no overlap (two names sharing one
 * compressed stream is a zip bomb trick) and no unlisted bytes (a hidden local entry — say `../../x` — that a
 * streaming unzipper reading local headers would extract although this reader never sees it).
 */
function checkLayout(
  spans: Array<{ start: number; end: number; descriptor: boolean; name: string }>,
  cdOffset: number,
  u32: (at: number) => number,
): void {
  spans.sort((a, b) => a.start - b.start);
  let pos = 0;
  for (const s of spans) {
    if (s.start < pos) throw corrupt(`entry "${s.name}" overlaps the previous entry (a zip bomb trick)`);
    if (s.start > pos) throw corrupt(`${s.start - pos} unlisted bytes before entry "${s.name}" (a hidden entry)`);
    pos = s.end;
    // Data descriptor after the data: crc + sizes, with or without its optional signature.
    if (s.descriptor) pos += pos + 4 <= cdOffset && u32(pos) === 0x08074b50 ? 16 : 12;
  }
  if (pos !== cdOffset) throw corrupt(`${cdOffset - pos} unlisted bytes before the central directory (a hidden entry)`);
}

function checkCrc(name: string, data: Uint8Array, crc: number): Uint8Array {
  if (Bun.hash.crc32(data) >>> 0 !== crc >>> 0) throw corrupt(`entry "${name}" fails its CRC-32 check`);
  return data;
}

/** Thrown by the bounded inflaters; the caller turns it into the archive-level "expands past the cap" error. */
export class BudgetExceeded extends Error {}
const overBudget = () => new BudgetExceeded('over budget');

/** The part of fflate's streaming Inflate and Gunzip that the bounded reader drives. */
export interface PushStream {
  push(chunk: Uint8Array, final: boolean): void;
}

/**
 * Feeds `input` in 4 KiB chunks and stops as soon as the output passes `limit`: a bomb that lies about its size
 * costs at most `limit` + one chunk's expansion (deflate peaks near 1:1032, so ~4 MiB) of memory, never the full
 * expansion. Shared by zip entries (Inflate) and .tar.gz sources (Gunzip); `onCorrupt` gets the decoder's complaint.
 */
export function expandBounded(
  open: (ondata: (chunk: Uint8Array) => void) => PushStream,
  input: Uint8Array,
  limit: number,
  onCorrupt: (why: string) => Error,
  onOver: () => Error = overBudget,
): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  const stream = open((chunk) => {
    total += chunk.length;
    if (total > limit) over = true;
    else chunks.push(chunk);
  });
  const step = 4 * 1024;
  try {
    for (let i = 0; i < input.length && !over; i += step)
      stream.push(input.subarray(i, i + step), i + step >= input.length);
    if (input.length === 0) stream.push(new Uint8Array(0), true);
  } catch (e) {
    if (!over) throw onCorrupt(e instanceof Error ? e.message : String(e));
  }
  if (over) throw onOver();
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
