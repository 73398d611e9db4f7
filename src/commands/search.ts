import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'search',
    description: "Search the registry for validators (offline or unreachable: avp's embedded catalog)",
  },
  args: {
    query: { type: 'positional', required: false, description: 'Words to search for (empty: everything)' },
    tag: { type: 'string', description: 'Only packages with this tag' },
    limit: { type: 'string', description: 'At most this many results (default 20)' },
    registry: { type: 'string', description: 'Registry base URL' },
    offline: { type: 'boolean', description: 'Search only the catalog embedded in avp; no network' },
    json: {
      type: 'boolean',
      description:
        'Print the answer as JSON on stdout ({packages, total, endpoint, …}; source: "catalog" when offline)',
    },
  },
  run({ args }) {
    return runCommand(async () => {
      const [
        { clientFor },
        { searchRegistry },
        { printJson },
        { formatTable },
        { findProjectRoot },
        { logger },
        offline,
      ] = await Promise.all([
        import('../registry-client/credentials.ts'),
        import('../registry-client/search.ts'),
        import('../registry-client/cli-args.ts'),
        import('../registry-client/table.ts'),
        import('../paths.ts'),
        import('../logger.ts'),
        import('./offline-catalog.ts'),
      ]);
      const limit = args.limit === undefined ? 20 : Number(args.limit);
      if (!Number.isInteger(limit) || limit < 1) {
        const { AvpError } = await import('../errors.ts');
        throw new AvpError('args-limit', `--limit ${args.limit} is not a positive integer`, { fix: 'e.g. --limit 50' });
      }
      // Several words are one query: `avp search no secrets` looks for both.
      const query = (args._ as string[]).filter(Boolean).join(' ');
      const log = await logger();
      let failure: unknown;
      if (!args.offline) {
        try {
          const client = await clientFor({ registry: args.registry, projectRoot: findProjectRoot(process.cwd()) });
          const { waitingNotice } = await import('../registry-client/progress.ts');
          const waiting = waitingNotice(`asking ${client.base}`, { json: !!args.json });
          const r = await searchRegistry(client, query, { tag: args.tag, limit }).finally(() => waiting.done());
          if (args.json) return printJson(r);
          if (!r.packages.length) return log.info(`no validators match "${query}" on ${client.base}`);
          process.stdout.write(
            formatTable(
              ['NAME', 'VERSION', 'DOWNLOADS', 'DESCRIPTION'],
              r.packages.map((p) => [p.name, p.latest || '-', String(p.downloads), p.description]),
            ),
          );
          if (r.total > r.packages.length) log.info(`${r.packages.length} of ${r.total} shown (--limit)`);
          return;
        } catch (e) {
          if (!offline.registryDown(e)) throw e;
          failure = e;
        }
      }
      log.warn(offline.fallbackNote(failure));
      const hits = offline.matchCatalog(await offline.catalogPackages(), query, args.tag);
      const shown = hits.slice(0, limit);
      if (args.json) return printJson({ source: 'catalog', packages: shown, total: hits.length, limit, offset: 0 });
      if (!shown.length) return log.info(`no catalog validator matches "${query}"`);
      process.stdout.write(
        formatTable(
          ['NAME', 'VERSION', 'TRIGGER', 'DESCRIPTION'],
          shown.map((p) => [p.name, p.version, p.trigger, p.description]),
        ),
      );
      if (hits.length > shown.length) log.info(`${shown.length} of ${hits.length} shown (--limit)`);
    });
  },
});
