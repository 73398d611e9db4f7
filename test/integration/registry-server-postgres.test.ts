import { afterAll, beforeAll, setDefaultTimeout } from 'bun:test';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { registryServerSuite } from './registry-server-suite.ts';

// Real processes (server, client, PostgreSQL) on a shared 2-core machine: generous per-test budget.
setDefaultTimeout(60_000);

// The same suite with metadata in PostgreSQL (same schema and migrations). The PostgreSQL server is started from the
// distribution's binaries by the suite itself; when they are missing, beforeAll fails with the install command.
let pg: TestPostgres | undefined;
beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

registryServerSuite('postgres', () => {
  if (!pg) throw new Error('PostgreSQL did not start (see the beforeAll error above)');
  return pg.url;
});
