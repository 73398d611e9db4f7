import type { SQL } from 'bun';
import { CACHE_MIGRATIONS } from './metadata-cache.ts';
import { SCALE_MIGRATIONS } from './migrations-scale.ts';

/**
 * The schema, as ordered migrations run identically on SQLite and PostgreSQL (Bun.SQL speaks both). Only portable
 * DDL is used: TEXT and INTEGER columns, ISO-8601 timestamps as TEXT (they sort lexically), 0/1 for booleans, JSON
 * arrays as TEXT. Applied versions are recorded in `schema_migrations`; a migration is never edited once released —
 * a change is a new entry at the end.
 */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'packages, versions, owners, tokens, login codes',
    statements: [
      `CREATE TABLE packages (
        name TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        description TEXT NOT NULL,
        author TEXT NOT NULL,
        license TEXT,
        readme TEXT,
        latest TEXT,
        downloads INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE package_tags (
        name TEXT NOT NULL REFERENCES packages (name),
        tag TEXT NOT NULL,
        PRIMARY KEY (name, tag)
      )`,
      `CREATE INDEX package_tags_tag ON package_tags (tag)`,
      `CREATE TABLE versions (
        name TEXT NOT NULL REFERENCES packages (name),
        version TEXT NOT NULL,
        integrity TEXT NOT NULL,
        size INTEGER NOT NULL,
        description TEXT NOT NULL,
        author TEXT NOT NULL,
        license TEXT,
        tags TEXT NOT NULL,
        readme TEXT,
        published_by TEXT NOT NULL,
        published_at TEXT NOT NULL,
        yanked INTEGER NOT NULL DEFAULT 0,
        yanked_at TEXT,
        PRIMARY KEY (name, version)
      )`,
      `CREATE TABLE owners (
        name TEXT NOT NULL REFERENCES packages (name),
        account TEXT NOT NULL,
        added_by TEXT,
        added_at TEXT NOT NULL,
        PRIMARY KEY (name, account)
      )`,
      `CREATE INDEX owners_account ON owners (account)`,
      `CREATE TABLE tokens (
        id TEXT PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        account TEXT NOT NULL,
        email TEXT,
        scope TEXT NOT NULL,
        label TEXT,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      )`,
      `CREATE TABLE login_codes (
        hash TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        email TEXT,
        expires_at TEXT NOT NULL
      )`,
    ],
  },
  ...SCALE_MIGRATIONS,
  ...CACHE_MIGRATIONS,
];

/**
 * Brings the database up to the newest migration, each in its own transaction. Two servers starting together on one
 * PostgreSQL database race harmlessly: the loser's insert into `schema_migrations` conflicts and its transaction
 * rolls back, so it re-reads the applied set and continues.
 */
export async function migrate(db: SQL, engine: 'sqlite' | 'postgres' = 'sqlite'): Promise<number[]> {
  const bytes = engine === 'postgres' ? 'BYTEA' : 'BLOB';
  await db.unsafe(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    const done = await db`SELECT version FROM schema_migrations WHERE version = ${m.version}`;
    if (done.length) continue;
    try {
      await db.begin(async (tx) => {
        await tx`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, ${m.name}, ${new Date().toISOString()})`;
        for (const statement of m.statements) await tx.unsafe(statement.replaceAll('$BYTES', bytes));
      });
      applied.push(m.version);
    } catch (e) {
      const again = await db`SELECT version FROM schema_migrations WHERE version = ${m.version}`;
      if (!again.length) throw e;
    }
  }
  return applied;
}
