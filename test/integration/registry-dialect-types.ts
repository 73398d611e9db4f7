/**
 * The reference client's response types (its registry client's serde structs), as strict checkers: a `String` field
 * must be a string (never null, never missing), an `Option<T>` may be null or missing, a `#[serde(default)]` field
 * may be missing, a `u64`/`usize` is a non-negative integer, an `f64` any number. Unknown fields are ignored, as
 * serde does by default. `deserialize(kind, value)` throws with the path of the first field that would fail.
 */

type Field =
  | 'String'
  | 'Option<String>'
  | 'u64'
  | 'Option<u64>'
  | 'f64'
  | 'bool'
  | 'Vec<String>'
  | 'Option<Vec<String>>'
  | { vec: Struct }
  | { default: Field };
type Struct = Record<string, Field>;

const FUZZY_RESULT: Struct = {
  name: 'String',
  qualified_name: { default: 'Option<String>' },
  description: 'String',
  author: 'String',
  type: 'Option<String>',
  downloads: 'u64',
  score: 'f64',
};

const SUMMARY: Struct = {
  name: 'String',
  description: 'String',
  author: 'String',
  latest: 'String',
  tags: 'Vec<String>',
  type: { default: 'Option<String>' },
  downloads: 'u64',
  createdAt: 'String',
  updatedAt: 'String',
};

export const REFERENCE_TYPES = {
  FuzzySearchResponse: { results: { vec: FUZZY_RESULT }, total: 'u64' },
  SearchResponse: { packages: { vec: SUMMARY }, total: 'u64', limit: 'u64', offset: 'u64' },
  PackageDetail: {
    name: 'String',
    description: 'String',
    author: 'String',
    license: 'Option<String>',
    tags: 'Vec<String>',
    type: { default: 'Option<String>' },
    versions: 'Vec<String>',
    latest: 'String',
    downloads: 'u64',
    createdAt: 'String',
    updatedAt: 'String',
    readme: 'Option<String>',
  },
  VersionListResponse: { name: 'String', versions: { vec: { version: 'String', publishedAt: 'String' } } },
  VersionDetail: {
    name: 'String',
    version: 'String',
    type: { default: 'Option<String>' },
    downloadUrl: 'String',
    integrity: { default: 'Option<String>' },
    size: { default: 'Option<u64>' },
    publishedAt: 'String',
    description: 'Option<String>',
    author: 'Option<String>',
    license: 'Option<String>',
    tags: 'Option<Vec<String>>',
  },
  UpdateCheckResponse: {
    updates: { vec: { name: 'String', currentVersion: 'String', latestVersion: 'String', updateType: 'String' } },
  },
  PublishResponse: { name: 'String', version: 'String', published: 'bool', downloadUrl: 'String' },
  UnpublishResponse: { deleted: 'bool', name: 'String', version: 'String' },
} satisfies Record<string, Struct>;

export type ReferenceType = keyof typeof REFERENCE_TYPES;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkField(v: unknown, f: Field, at: string, present: boolean): void {
  if (typeof f === 'object' && 'default' in f) {
    if (!present) return;
    return checkField(v, f.default, at, true);
  }
  if (typeof f === 'object') {
    if (!Array.isArray(v)) throw new Error(`${at}: expected a sequence`);
    v.forEach((item, i) => checkStruct(item, f.vec, `${at}[${i}]`));
    return;
  }
  if (f.startsWith('Option<')) {
    if (!present || v === null) return;
    return checkField(v, f.slice(7, -1) as Field, at, true);
  }
  if (!present) throw new Error(`${at}: missing field`);
  const ok =
    f === 'String'
      ? typeof v === 'string'
      : f === 'u64'
        ? Number.isInteger(v) && (v as number) >= 0
        : f === 'f64'
          ? typeof v === 'number' && Number.isFinite(v)
          : f === 'bool'
            ? typeof v === 'boolean'
            : Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (!ok) throw new Error(`${at}: expected ${f}, got ${JSON.stringify(v)}`);
}

function checkStruct(v: unknown, s: Struct, at: string): void {
  if (!isObj(v)) throw new Error(`${at || 'the answer'}: expected a map`);
  for (const [key, f] of Object.entries(s)) checkField(v[key], f, `${at}${at ? '.' : ''}${key}`, key in v);
}

/** Throws unless `value` deserializes as the reference client's `kind`. */
export function deserialize(kind: ReferenceType, value: unknown): void {
  checkStruct(value, REFERENCE_TYPES[kind], '');
}
