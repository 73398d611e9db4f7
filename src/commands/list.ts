import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'list',
    description: 'List the active validators (project and user), what shadows what, and load errors',
  },
  args: {
    json: { type: 'boolean', description: 'Print JSON: { validators, errors, warnings, shadowed }' },
    available: {
      type: 'boolean',
      description: 'List the first-party catalog embedded in avp (install with `avp add <name>`)',
    },
  },
  run: ({ args }) =>
    runCommand(async () => {
      if (args.available) return listAvailable(Boolean(args.json));
      const [{ discover }, { findProjectRoot, projectValidatorsDir, userValidatorsDir }, view] = await Promise.all([
        import('../format/discover.ts'),
        import('../paths.ts'),
        import('../format/list-view.ts'),
      ]);
      const projectRoot = findProjectRoot(process.cwd());
      const d = await discover({ projectRoot });
      if (args.json) {
        process.stdout.write(`${JSON.stringify(view.listJson(d), null, 2)}\n`);
        return;
      }
      const text = view.listText(d);
      if (text) process.stdout.write(`${text}\n`);
      if (d.warnings.length) {
        const { logger } = await import('../logger.ts');
        (await logger()).warn(
          `${d.warnings.length} warning${d.warnings.length === 1 ? '' : 's'} in validator files: run \`avp lint\` to see them`,
        );
      }
      if (!d.validators.length && !d.errors.length) {
        const { logger } = await import('../logger.ts');
        (await logger()).info(
          `No validators in ${projectValidatorsDir(projectRoot)} or ${userValidatorsDir()}. Create one with \`avp new <name>\`, or see \`avp list --available\`.`,
        );
      }
    }),
});

/** The first-party catalog embedded in the binary (not a source: its validators run only once installed). */
async function listAvailable(json: boolean): Promise<void> {
  const [{ listCatalog }, { table }] = await Promise.all([
    import('../catalog/index.ts'),
    import('../format/list-view.ts'),
  ]);
  const items = await listCatalog();
  if (json) {
    process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    return;
  }
  const rows = items.map((i) => [
    i.name,
    i.version,
    i.trigger,
    i.severity,
    i.judge,
    i.recommended ? 'yes' : '',
    i.description,
  ]);
  process.stdout.write(
    `${table(['NAME', 'VERSION', 'TRIGGER', 'SEVERITY', 'JUDGE', 'RECOMMENDED', 'DESCRIPTION'], rows)}\n`,
  );
}
