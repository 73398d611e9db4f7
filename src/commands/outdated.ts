import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'outdated',
    description: 'List installed registry validators with newer versions (wanted = newest within the recorded range)',
  },
  args: {
    user: { type: 'boolean', description: 'Only the user scope' },
    project: { type: 'boolean', description: 'Only the project scope' },
    registry: { type: 'string', description: 'Registry base URL (default: the one each package came from)' },
    json: { type: 'boolean', description: 'Print the rows as JSON on stdout' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ outdated }, { printJson }, { formatTable }, { findProjectRoot }, { logger }] = await Promise.all([
        import('../registry-client/update.ts'),
        import('../registry-client/cli-args.ts'),
        import('../registry-client/table.ts'),
        import('../paths.ts'),
        import('../logger.ts'),
      ]);
      const scopes: Array<'user' | 'project'> =
        args.user && !args.project ? ['user'] : args.project && !args.user ? ['project'] : ['project', 'user'];
      const rows = await outdated({ scopes, projectRoot: findProjectRoot(process.cwd()), registry: args.registry });
      if (args.json) return printJson(rows);
      if (!rows.length) return (await logger()).success('every installed registry validator is up to date');
      process.stdout.write(
        formatTable(
          ['NAME', 'SCOPE', 'CURRENT', 'WANTED', 'LATEST'],
          rows.map((r) => [r.name, r.scope, r.current, r.wanted, r.latest]),
        ),
      );
    });
  },
});
