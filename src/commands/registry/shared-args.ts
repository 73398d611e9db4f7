import { join } from 'node:path';
import { avpHome } from '../../paths.ts';

/** `--data` / `--db`, shared by every `avp registry` subcommand that opens the store. */
export const storeArgs = {
  data: {
    type: 'string',
    description:
      'Data directory holding registry.db (SQLite) and blobs/ (default: $AVP_HOME/registry, i.e. ~/.avp/registry)',
  },
  db: {
    type: 'string',
    description:
      'Metadata database: postgres://user@host:port/db for PostgreSQL, or a SQLite file path (default: <data>/registry.db)',
  },
} as const;

/** `--archives`, for the commands that read or write archives (serve, export). */
export const archivesArg = {
  archives: {
    type: 'string',
    description:
      'Where archives live: file (<data>/blobs), db (the database) or s3://bucket/prefix (S3_* env) (default: db with PostgreSQL, else file)',
  },
} as const;

/** `--archives` from the flag, else `AVP_REGISTRY_ARCHIVES`. */
export function archivesOf(value: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return value || env.AVP_REGISTRY_ARCHIVES || undefined;
}

/** The data directory from `--data`, `AVP_REGISTRY_DATA`, else `~/.avp/registry`. */
export function dataDirOf(data: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return data || env.AVP_REGISTRY_DATA || join(avpHome(env), 'registry');
}

/** `--db` from the flag, else `AVP_REGISTRY_DB`. */
export function dbOf(db: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return db || env.AVP_REGISTRY_DB || undefined;
}
