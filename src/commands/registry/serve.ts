import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { AvpError } from '../../errors.ts';
import { runCommand } from '../run-command.ts';
import { archivesArg, archivesOf, dataDirOf, dbOf, storeArgs } from './shared-args.ts';

/**
 * `avp registry serve`: the registry API on one port. The first stdout line is one JSON object
 * `{"url","data","engine"}` (tests and scripts start it with `--port 0` and read the URL from it); logs go to stderr.
 */
export default defineCommand({
  meta: {
    name: 'serve',
    description: 'Serve the registry API (SQLite + local blobs by default; PostgreSQL with --db).',
  },
  args: {
    port: {
      type: 'string',
      description: 'TCP port (0 = a free one; the URL is printed as the first stdout line)',
      default: '4873',
    },
    host: {
      type: 'string',
      description: 'Interface to listen on (use 0.0.0.0 to serve beyond this machine)',
      default: '127.0.0.1',
    },
    ...storeArgs,
    ...archivesArg,
    'write-limit': {
      type: 'string',
      description: 'Writes (publish, yank, owner changes) per token per minute, shared by every instance; 0 = no limit',
      default: '120',
    },
    'base-url': {
      type: 'string',
      description:
        'Public base URL used in downloadUrl; required with a --host beyond loopback (default: the loopback origin)',
    },
  },
  async run({ args }) {
    await runCommand(async () => {
      const port = Number(args.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new AvpError('registry-bad-port', `--port ${args.port} is not a port number`, {
          fix: 'use 0–65535 (0 picks a free port)',
        });
      }
      if (args['base-url'] && !/^https?:\/\/[^/]+/.test(args['base-url'])) {
        throw new AvpError('registry-bad-base-url', `--base-url ${args['base-url']} is not an http(s) URL`, {
          fix: 'e.g. --base-url https://registry.example.com',
        });
      }
      const writeLimit = Number(args['write-limit']);
      if (!Number.isInteger(writeLimit) || writeLimit < 0) {
        throw new AvpError('usage', `--write-limit ${args['write-limit']} is not a whole number`, {
          fix: 'use the writes each token may make per minute, e.g. --write-limit 60 (0 turns the limit off)',
        });
      }
      const [{ startRegistry }, { logger }] = await Promise.all([
        import('../../../registry/server.ts'),
        import('../../logger.ts'),
      ]);
      const log = await logger();
      const dataDir = resolve(dataDirOf(args.data));
      const registry = await startRegistry({
        dataDir,
        db: dbOf(args.db),
        archives: archivesOf(args.archives),
        writeLimit,
        port,
        host: args.host,
        baseUrl: args['base-url'],
        onError: (e, req) =>
          log.error(`${req.method} ${req.url}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
      }).catch((e: unknown) => {
        if (e instanceof AvpError) throw e; // already says what to change (e.g. --base-url for a public --host)
        throw new AvpError(
          'registry-start-failed',
          `the registry could not start: ${e instanceof Error ? e.message : String(e)}`,
          {
            fix: 'check --port (in use?), --data (writable?), --db (reachable? credentials?) and --archives',
          },
        );
      });
      const first = { url: registry.url, data: dataDir, engine: registry.store.engine, archives: registry.archives };
      process.stdout.write(`${JSON.stringify(first)}\n`);
      log.info(`registry listening on ${registry.url} (${registry.store.engine}, data ${dataDir}); Ctrl-C stops it`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await registry.stop();
      log.info('registry stopped');
    });
  },
});
