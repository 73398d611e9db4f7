import { setDefaultTimeout } from 'bun:test';
import { registryServerSuite } from './registry-server-suite.ts';

// Real server processes on a shared 2-core machine: generous per-test budget.
setDefaultTimeout(60_000);

// The server with its default store: a SQLite file and blobs under --data, no other setup.
registryServerSuite('sqlite', () => undefined);
