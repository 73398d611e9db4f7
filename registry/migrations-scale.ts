import type { Migration } from './migrations.ts';

/**
 * The schema for stateless instances, the web pages and operations: archives in the database (so N servers on one
 * PostgreSQL share them), what the package pages show at a glance (`versions.facts`), the audit log, per-token write
 * counters and the objects written to object storage (live once their version row commits). `$BYTES` is the
 * engine's binary type (BYTEA or BLOB), the one thing both engines spell differently. Numbered apart from the first
 * list so that migrations added in parallel elsewhere never take the same number.
 */
export const SCALE_MIGRATIONS: Migration[] = [
  {
    version: 10,
    name: 'archives in the database, page facts, audit log, write counters, object-storage objects',
    statements: [
      `CREATE TABLE archives (
        key TEXT PRIMARY KEY,
        bytes $BYTES NOT NULL,
        size INTEGER NOT NULL,
        created_at TEXT NOT NULL
      )`,
      `ALTER TABLE versions ADD COLUMN facts TEXT`,
      `CREATE TABLE audit_log (
        id TEXT PRIMARY KEY,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        account TEXT,
        token_id TEXT,
        package TEXT,
        version TEXT,
        target TEXT,
        ip TEXT,
        forwarded_for TEXT,
        detail TEXT
      )`,
      `CREATE INDEX audit_log_at ON audit_log (at)`,
      `CREATE TABLE write_counts (
        token_id TEXT NOT NULL,
        window_start TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (token_id, window_start)
      )`,
      `CREATE TABLE archive_objects (
        id TEXT PRIMARY KEY,
        key TEXT NOT NULL,
        object TEXT NOT NULL,
        live INTEGER NOT NULL DEFAULT 0,
        started_at TEXT NOT NULL
      )`,
      `CREATE INDEX archive_objects_key ON archive_objects (key)`,
    ],
  },
];
