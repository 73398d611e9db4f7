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

/** The data directory from `--data`, `AVP_REGISTRY_DATA`, else `~/.avp/registry`. */
export function dataDirOf(data: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return data || env.AVP_REGISTRY_DATA || join(avpHome(env), 'registry');
}

/** `--db` from the flag, else `AVP_REGISTRY_DB`. */
export function dbOf(db: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return db || env.AVP_REGISTRY_DB || undefined;
}
