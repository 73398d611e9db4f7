import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'yank',
    description:
      'Yank a published version: hidden from resolution and latest, still downloadable by an exact lockfile pin',
  },
  args: {
    spec: { type: 'positional', required: true, description: 'name@version' },
    registry: { type: 'string', description: 'Registry base URL' },
    json: { type: 'boolean', description: 'Print the result as JSON on stdout' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ yankVersion }, { printJson }, { findProjectRoot }, { logger }] = await Promise.all([
        import('../registry-client/publish.ts'),
        import('../registry-client/cli-args.ts'),
        import('../paths.ts'),
        import('../logger.ts'),
      ]);
      const r = await yankVersion(args.spec, { registry: args.registry, projectRoot: findProjectRoot(process.cwd()) });
      if (args.json) return printJson({ ...r, yanked: !r.deleted });
      const log = await logger();
      if (r.deleted)
        log.warn(`${r.registry} deleted ${r.name}@${r.version} permanently (its unpublish deletes; exact pins break)`);
      else log.success(`yanked ${r.name}@${r.version} on ${r.registry}`);
    });
  },
});
