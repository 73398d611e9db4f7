/**
 * Builds real zips with fflate, then forges the fields a hostile archive would lie about (names, sizes, attributes)
 * directly in the bytes — the same bytes a malicious registry would serve.
 */
import { zipSync } from 'fflate';

export const VALIDATOR_MD = (name = 'demo', version: string = '"1.0.0"') =>
  `---\nname: ${name}\ndescription: A demo validator.\nseverity: error\ntrigger: PostToolUse\nmetadata:\n  version: ${version}\n---\n\n# Demo\n\nCheck things.\n`;

type Entry = [string, string | Uint8Array, { os?: number; attrs?: number; level?: 0 | 6 | 9 }?];

/** A zip from `[name, content, attributes?]` entries, in order. */
export function makeZip(entries: Entry[]): Uint8Array {
  const z: Record<string, [Uint8Array, object]> = {};
  for (const [name, content, opts] of entries) {
    z[name] = [typeof content === 'string' ? new TextEncoder().encode(content) : content, { level: 6, ...opts }];
  }
  return zipSync(z as Parameters<typeof zipSync>[0]);
}

/** A well-formed validator package zip. */
export function validatorZip(name = 'demo', extra: Entry[] = [], version = '1.0.0'): Uint8Array {
  return makeZip([
    [`${name}/`, ''],
    [`${name}/VALIDATOR.md`, VALIDATOR_MD(name, `"${version}"`)],
    [`${name}/rules/one.md`, '---\nname: one\n---\nRule.\n'],
    ...extra,
  ]);
}

const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** Calls `fn` with the offsets of every central directory record and its local header. */
function eachEntry(bytes: Uint8Array, fn: (central: number, local: number, name: string) => void): void {
  const v = dv(bytes);
  let eocd = bytes.length - 22;
  while (v.getUint32(eocd, true) !== 0x06054b50) eocd--;
  const count = v.getUint16(eocd + 10, true);
  let at = v.getUint32(eocd + 16, true);
  for (let i = 0; i < count; i++) {
    const nameLen = v.getUint16(at + 28, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLen));
    fn(at, v.getUint32(at + 42, true), name);
    at += 46 + nameLen + v.getUint16(at + 30, true) + v.getUint16(at + 32, true);
  }
}

/** Renames an entry in place (same length), in both the central directory and the local header. */
export function renameEntry(bytes: Uint8Array, from: string, to: string): Uint8Array {
  if (from.length !== to.length) throw new Error('same length only');
  const out = bytes.slice();
  const enc = new TextEncoder().encode(to);
  eachEntry(out, (central, local, name) => {
    if (name !== from) return;
    out.set(enc, central + 46);
    out.set(enc, local + 30);
  });
  return out;
}

/** Overwrites the declared uncompressed size of an entry (central and local). */
export function lieAboutSize(bytes: Uint8Array, entry: string, size: number): Uint8Array {
  const out = bytes.slice();
  const v = dv(out);
  eachEntry(out, (central, local, name) => {
    if (name !== entry) return;
    v.setUint32(central + 24, size, true);
    v.setUint32(local + 22, size, true);
  });
  return out;
}

/**
 * Smuggles the local entries of `hidden` between the last listed entry and the central directory of `zip`: the
 * central directory stays clean, but a streaming unzipper reading local headers would extract the hidden entries.
 */
export function smuggleEntries(zip: Uint8Array, hidden: Uint8Array): Uint8Array {
  const eocdOf = (b: Uint8Array) => {
    const v = dv(b);
    let at = b.length - 22;
    while (v.getUint32(at, true) !== 0x06054b50) at--;
    return { at, cd: v.getUint32(at + 16, true) };
  };
  const z = eocdOf(zip);
  const h = eocdOf(hidden);
  const smuggled = hidden.subarray(0, h.cd);
  const out = new Uint8Array(zip.length + smuggled.length);
  out.set(zip.subarray(0, z.cd), 0);
  out.set(smuggled, z.cd);
  out.set(zip.subarray(z.cd), z.cd + smuggled.length);
  dv(out).setUint32(z.at + smuggled.length + 16, z.cd + smuggled.length, true);
  return out;
}
