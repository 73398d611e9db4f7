import { SQL } from 'bun';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { rcompare, prerelease } from 'semver';
import { migrate } from './migrations.ts';

/**
 * The metadata store: one Bun.SQL connection (SQLite file by default, PostgreSQL for `postgres://` URLs) and the
 * queries the server needs. Every value travels as a bound parameter (tagged templates); no SQL is built from input.
 */
export interface PackageRow {
  name: string;
  type: string;
  description: string;
  author: string;
  license: string | null;
  readme: string | null;
  latest: string | null;
  downloads: number;
  created_at: string;
  updated_at: string;
  tags: string[];
}

export interface VersionRow {
  name: string;
  version: string;
  integrity: string;
  size: number;
  description: string;
  author: string;
  license: string | null;
  tags: string[];
  readme: string | null;
  published_by: string;
  published_at: string;
  yanked: boolean;
  yanked_at: string | null;
}

export interface NewVersion {
  name: string;
  version: string;
  type: string;
  integrity: string;
  size: number;
  description: string;
  author: string;
  license?: string;
  tags: string[];
  readme?: string;
  publishedBy: string;
}

export type Engine = 'sqlite' | 'postgres';

/** `--db` value → Bun.SQL URL and engine; default is `<data>/registry.db`. */
function resolveDbUrl(dataDir: string, db?: string): { url: string; engine: Engine } {
  if (db && /^postgres(ql)?:\/\//.test(db)) return { url: db, engine: 'postgres' };
  const file = db ? db.replace(/^sqlite:(\/\/)?/, '') : join(dataDir, 'registry.db');
  return { url: `sqlite://${resolve(file)}`, engine: 'sqlite' };
}

/** Latest = highest non-yanked release; prereleases only when nothing else is left. */
function pickLatest(versions: string[]): string | null {
  const sorted = [...versions].sort(rcompare);
  return sorted.find((v) => !prerelease(v)) ?? sorted[0] ?? null;
}

function toPackage(row: any, tags: string[]): PackageRow {
  return { ...row, downloads: Number(row.downloads), tags };
}

function toVersion(row: any): VersionRow {
  return { ...row, size: Number(row.size), yanked: Number(row.yanked) === 1, tags: JSON.parse(row.tags) as string[] };
}

/**
 * Creates the SQLite file 0600 before SQLite does (it would use the umask, usually 0644: token hashes and account
 * emails readable by every local user), and tightens an existing one. SQLite gives its -wal and -shm files the
 * database file's permissions.
 */
function privateFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  else if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
}

/** True for a unique/primary-key violation on either engine. */
function isUniqueViolation(e: unknown): boolean {
  const err = e as { errno?: unknown; code?: unknown; message?: unknown };
  return (
    String(err?.errno) === '23505' ||
    /UNIQUE constraint|SQLITE_CONSTRAINT/i.test(String(err?.message ?? err?.code ?? ''))
  );
}

export class Store {
  readonly db: SQL;
  readonly engine: Engine;
  /** The SQLite file (undefined on PostgreSQL). */
  readonly file: string | undefined;

  private constructor(db: SQL, engine: Engine, file?: string) {
    this.db = db;
    this.engine = engine;
    this.file = file;
  }

  /** Opens (creating the data dir and SQLite file when needed) and migrates. */
  static async open(dataDir: string, dbUrl?: string): Promise<Store> {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const { url, engine } = resolveDbUrl(dataDir, dbUrl);
    if (engine === 'sqlite') privateFile(url.slice('sqlite://'.length));
    const db = engine === 'sqlite' ? new SQL(url) : new SQL(url, { max: 10 });
    if (engine === 'sqlite') {
      // WAL lets `avp registry token create` and `export` read and write while a server runs on the same file.
      await db.unsafe('PRAGMA journal_mode = WAL');
      await db.unsafe('PRAGMA busy_timeout = 5000');
      await db.unsafe('PRAGMA foreign_keys = ON');
    }
    // Servers starting together on one empty PostgreSQL database can collide even on CREATE TABLE IF NOT EXISTS
    // (PostgreSQL checks the catalog before locking it); the loser simply tries again and finds the work done.
    for (let attempt = 1; ; attempt++) {
      try {
        await migrate(db, engine);
        break;
      } catch (e) {
        if (attempt >= 5) {
          await db.close();
          throw e;
        }
        await Bun.sleep(50 * attempt + Math.random() * 50);
      }
    }
    return new Store(db, engine, engine === 'sqlite' ? url.slice('sqlite://'.length) : undefined);
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  private async tagsOf(names: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    if (!names.length) return map;
    const rows = await this.db`SELECT name, tag FROM package_tags WHERE name IN ${this.db(names)} ORDER BY tag`;
    for (const r of rows as Array<{ name: string; tag: string }>) map.set(r.name, [...(map.get(r.name) ?? []), r.tag]);
    return map;
  }

  async getPackage(name: string): Promise<PackageRow | undefined> {
    const [row] = await this.db`SELECT * FROM packages WHERE name = ${name}`;
    if (!row) return undefined;
    return toPackage(row, (await this.tagsOf([name])).get(name) ?? []);
  }

  /** Versions, newest first by semver. */
  async listVersions(name: string, opts: { includeYanked: boolean }): Promise<VersionRow[]> {
    const rows = opts.includeYanked
      ? await this.db`SELECT * FROM versions WHERE name = ${name}`
      : await this.db`SELECT * FROM versions WHERE name = ${name} AND yanked = 0`;
    return (rows as any[]).map(toVersion).sort((a, b) => rcompare(a.version, b.version));
  }

  async getVersion(name: string, version: string): Promise<VersionRow | undefined> {
    const [row] = await this.db`SELECT * FROM versions WHERE name = ${name} AND version = ${version}`;
    return row ? toVersion(row) : undefined;
  }

  /**
   * Packages with at least one non-yanked version, filtered; `q` matches name, description or a tag (case-insensitive).
   */
  async search(opts: {
    q: string;
    type: string;
    tag: string;
    limit: number;
    offset: number;
  }): Promise<{ rows: PackageRow[]; total: number }> {
    const q = opts.q.trim().toLowerCase();
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const where = this.db`p.latest IS NOT NULL
      AND (${q} = '' OR lower(p.name) LIKE ${pattern} ESCAPE '\\' OR lower(p.description) LIKE ${pattern} ESCAPE '\\'
        OR EXISTS (SELECT 1 FROM package_tags t WHERE t.name = p.name AND lower(t.tag) LIKE ${pattern} ESCAPE '\\'))
      AND (${opts.type} = '' OR lower(p.type) = ${opts.type.toLowerCase()})
      AND (${opts.tag} = '' OR EXISTS (SELECT 1 FROM package_tags t2 WHERE t2.name = p.name AND t2.tag = ${opts.tag}))`;
    const [count] = await this.db`SELECT count(*) AS total FROM packages p WHERE ${where}`;
    const rows = await this.db`SELECT p.* FROM packages p WHERE ${where}
      ORDER BY CASE WHEN p.name = ${q} THEN 0 ELSE 1 END, p.downloads DESC, p.name ASC
      LIMIT ${opts.limit} OFFSET ${opts.offset}`;
    const tags = await this.tagsOf((rows as any[]).map((r) => r.name));
    return { rows: (rows as any[]).map((r) => toPackage(r, tags.get(r.name) ?? [])), total: Number(count?.total ?? 0) };
  }

  /** Every package by name, fully yanked ones too (`latest` null): the export writes their version files. */
  async allPackages(): Promise<PackageRow[]> {
    const rows = await this.db`SELECT * FROM packages ORDER BY name`;
    const tags = await this.tagsOf((rows as any[]).map((r) => r.name));
    return (rows as any[]).map((r) => toPackage(r, tags.get(r.name) ?? []));
  }

  /** True when an account is known here: it has (or had) a token, or owns a package. */
  async accountExists(account: string): Promise<boolean> {
    const [t] = await this.db`SELECT 1 AS x FROM tokens WHERE account = ${account} LIMIT 1`;
    if (t) return true;
    const [o] = await this.db`SELECT 1 AS x FROM owners WHERE account = ${account} LIMIT 1`;
    return Boolean(o);
  }

  async owners(name: string): Promise<string[]> {
    const rows = await this.db`SELECT account FROM owners WHERE name = ${name} ORDER BY added_at, account`;
    return (rows as Array<{ account: string }>).map((r) => r.account);
  }

  /**
   * Records a new version in one transaction: creates the package with `publishedBy` as its first owner when the
   * name is new, refuses a non-owner (returns 'forbidden'), refuses an existing name@version (returns 'conflict'),
   * and moves the package's metadata to this version when it becomes the latest.
   */
  async publish(
    v: NewVersion,
    opts: { admin: boolean; inTx?: (tx: SQL) => Promise<void> },
  ): Promise<'ok' | 'forbidden' | 'conflict'> {
    // Two first publishers of one name, or two uploads of one version, racing: the loser's insert violates a key.
    // Running its transaction again lets it see the winner's rows and answer 403 or 409 like any later request.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.publishOnce(v, opts);
      } catch (e) {
        if (!isUniqueViolation(e) || attempt >= 3) throw e;
      }
    }
  }

  private publishOnce(
    v: NewVersion,
    opts: { admin: boolean; inTx?: (tx: SQL) => Promise<void> },
  ): Promise<'ok' | 'forbidden' | 'conflict'> {
    const now = new Date().toISOString();
    return this.db.begin(async (tx) => {
      const [pkg] = await tx`SELECT name FROM packages WHERE name = ${v.name}`;
      if (!pkg) {
        await tx`INSERT INTO packages (name, type, description, author, license, readme, latest, downloads, created_at, updated_at)
          VALUES (${v.name}, ${v.type}, ${v.description}, ${v.author}, ${v.license ?? null}, ${v.readme ?? null}, ${null}, ${0}, ${now}, ${now})`;
        await tx`INSERT INTO owners (name, account, added_by, added_at) VALUES (${v.name}, ${v.publishedBy}, ${null}, ${now})`;
      } else if (!opts.admin) {
        const [owner] = await tx`SELECT account FROM owners WHERE name = ${v.name} AND account = ${v.publishedBy}`;
        if (!owner) return 'forbidden' as const;
      }
      const [existing] = await tx`SELECT version FROM versions WHERE name = ${v.name} AND version = ${v.version}`;
      if (existing) return 'conflict' as const;
      await tx`INSERT INTO versions (name, version, integrity, size, description, author, license, tags, readme, published_by, published_at, yanked, yanked_at)
        VALUES (${v.name}, ${v.version}, ${v.integrity}, ${v.size}, ${v.description}, ${v.author}, ${v.license ?? null},
                ${JSON.stringify(v.tags)}, ${v.readme ?? null}, ${v.publishedBy}, ${now}, ${0}, ${null})`;
      await this.refreshLatest(tx, v.name, now);
      // The archive (database storage), its object's live mark, the page facts and the audit row commit with it.
      await opts.inTx?.(tx);
      return 'ok' as const;
    });
  }

  /** Marks a version yanked (idempotent) and moves `latest`. */
  async yank(name: string, version: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db.begin(async (tx) => {
      await tx`UPDATE versions SET yanked = ${1}, yanked_at = ${now} WHERE name = ${name} AND version = ${version} AND yanked = 0`;
      await this.refreshLatest(tx, name, now);
    });
  }

  /**
   * Recomputes `latest` and copies that version's metadata (description, tags…) onto the package. Every change to a
   * package's versions passes here (publish, yank, purge), so it also bumps `revision`, the metadata cache's stamp.
   */
  async refreshLatest(tx: SQL, name: string, now: string): Promise<void> {
    const rows = (await tx`SELECT * FROM versions WHERE name = ${name} AND yanked = 0`) as any[];
    const latest = pickLatest(rows.map((r) => r.version));
    const row = rows.find((r) => r.version === latest);
    if (!row) {
      await tx`UPDATE packages SET latest = ${null}, updated_at = ${now}, revision = revision + 1 WHERE name = ${name}`;
      return;
    }
    await tx`UPDATE packages SET latest = ${latest}, description = ${row.description}, author = ${row.author},
      license = ${row.license}, readme = ${row.readme}, updated_at = ${now}, revision = revision + 1
      WHERE name = ${name}`;
    await tx`DELETE FROM package_tags WHERE name = ${name}`;
    for (const tag of new Set(JSON.parse(row.tags) as string[]))
      await tx`INSERT INTO package_tags (name, tag) VALUES (${name}, ${tag})`;
  }

  async countDownload(name: string): Promise<void> {
    await this.db`UPDATE packages SET downloads = downloads + 1 WHERE name = ${name}`;
  }

  async addOwner(name: string, account: string, by: string): Promise<void> {
    try {
      await this
        .db`INSERT INTO owners (name, account, added_by, added_at) VALUES (${name}, ${account}, ${by}, ${new Date().toISOString()})`;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
  }

  /** Removes an owner unless it is the last one (returns false then). */
  async removeOwner(name: string, account: string): Promise<boolean> {
    return this.db.begin(async (tx) => {
      const [count] = await tx`SELECT count(*) AS n FROM owners WHERE name = ${name} AND account <> ${account}`;
      if (Number(count?.n ?? 0) === 0) return false;
      await tx`DELETE FROM owners WHERE name = ${name} AND account = ${account}`;
      return true;
    });
  }
}
