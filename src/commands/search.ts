import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: { name: 'search', description: 'Search the registry for validators' },
  args: {
    query: { type: 'positional', required: false, description: 'Words to search for (empty: everything)' },
    tag: { type: 'string', description: 'Only packages with this tag' },
    limit: { type: 'string', description: 'At most this many results (default 20)' },
    registry: { type: 'string', description: 'Registry base URL' },
    json: { type: 'boolean', description: "Print the registry's answer as JSON on stdout" },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ clientFor }, { printJson }, { formatTable }, { findProjectRoot }, { logger }] = await Promise.all([
        import('../registry/credentials.ts'),
        import('../registry/cli-args.ts'),
        import('../registry/table.ts'),
        import('../paths.ts'),
        import('../logger.ts'),
      ]);
      const limit = args.limit === undefined ? 20 : Number(args.limit);
      if (!Number.isInteger(limit) || limit < 1) {
        const { AvpError } = await import('../errors.ts');
        throw new AvpError('args-limit', `--limit ${args.limit} is not a positive integer`, { fix: 'e.g. --limit 50' });
      }
      const client = await clientFor({ registry: args.registry, projectRoot: findProjectRoot(process.cwd()) });
      const r = await client.search(args.query ?? '', { tag: args.tag, limit });
      if (args.json) return printJson(r);
      if (!r.packages.length)
        return (await logger()).info(`no validators match "${args.query ?? ''}" on ${client.base}`);
      process.stdout.write(
        formatTable(
          ['NAME', 'VERSION', 'DOWNLOADS', 'DESCRIPTION'],
          r.packages.map((p) => [p.name, p.latest, String(p.downloads), p.description ?? '']),
        ),
      );
      if (r.total > r.packages.length) (await logger()).info(`${r.packages.length} of ${r.total} shown (--limit)`);
    });
  },
});
