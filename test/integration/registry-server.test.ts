import { registryServerSuite } from './registry-server-suite.ts';

// The server with its default store: a SQLite file and blobs under --data, no other setup.
registryServerSuite('sqlite', () => undefined);
