import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'remove',
    description: 'Uninstall a validator avp installed (directory and lockfile entry); never your own or edited ones',
  },
  args: {
    name: { type: 'positional', required: true, description: 'Validator name' },
    user: { type: 'boolean', description: 'From ~/.avp/validators (default)' },
    project: { type: 'boolean', description: 'From <project>/.avp/validators' },
    force: {
      type: 'boolean',
      description: 'Also delete a validator avp did not install, or one edited since avp installed it',
    },
    json: { type: 'boolean', description: 'Print the result as JSON on stdout' },
    quiet: { type: 'boolean', description: 'Print nothing but errors' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ removeValidator }, { scopeOf, applyQuiet, printJson }, { findProjectRoot }, { logger }] =
        await Promise.all([
          import('../registry-client/install.ts'),
          import('../registry-client/cli-args.ts'),
          import('../paths.ts'),
          import('../logger.ts'),
        ]);
      applyQuiet(args);
      const scope = scopeOf(args);
      const projectRoot = findProjectRoot(process.cwd());
      const r = await removeValidator(args.name, { scope, projectRoot, force: args.force }).catch(
        async (e: unknown) => {
          const { withNameSuggestion } = await import('./validator-names.ts');
          throw await withNameSuggestion(e, args.name, projectRoot, 'remove');
        },
      );
      // The user ran this: the removal is accepted (inside an agent it waits for `avp accept`).
      const { acceptWrittenPaths } = await import('../trust/accept.ts');
      const { lockfilePath } = await import('../registry-client/lockfile.ts');
      const waiting = acceptWrittenPaths(projectRoot, process.env, [r.dir, lockfilePath(scope, projectRoot)]);
      if (args.json) printJson({ name: args.name, scope, ...r });
      if (waiting) (await logger()).warn(waiting);
      (await logger()).success(`removed ${args.name}${r.version ? `@${r.version}` : ''} (${scope}) from ${r.dir}`);
    });
  },
});
