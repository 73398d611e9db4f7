import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { AvpError } from '../../errors.ts';
import { runCommand } from '../run-command.ts';
import { dataDirOf, dbOf, storeArgs } from './shared-args.ts';

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
      const [{ startRegistry }, { logger }] = await Promise.all([
        import('../../../registry/server.ts'),
        import('../../logger.ts'),
      ]);
      const log = await logger();
      const dataDir = resolve(dataDirOf(args.data));
      const registry = await startRegistry({
        dataDir,
        db: dbOf(args.db),
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
            fix: 'check --port (in use?), --data (writable?) and --db (reachable? credentials?)',
          },
        );
      });
      process.stdout.write(`${JSON.stringify({ url: registry.url, data: dataDir, engine: registry.store.engine })}\n`);
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
