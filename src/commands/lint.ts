import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'lint',
    description: 'Check validator files or folders against AVP 1.0; prints file:line:col lines, exits 1 on any error',
  },
  args: {
    paths: {
      type: 'positional',
      required: false,
      description: 'Validator files or folders (default: the project and user validators)',
    },
    json: { type: 'boolean', description: 'Print JSON: { errors, warnings, messages } (absolute paths)' },
  },
  run: ({ args }) =>
    runCommand(async () => {
      const [{ lintPaths, defaultLintPaths, formatLint }, { findProjectRoot }] = await Promise.all([
        import('../validator/lint.ts'),
        import('../paths.ts'),
      ]);
      let paths = (args._ as string[]).filter(Boolean);
      if (paths.length === 0) {
        paths = defaultLintPaths(findProjectRoot(process.cwd()));
        if (paths.length === 0) {
          const { AvpError } = await import('../errors.ts');
          throw new AvpError(
            'lint-nothing',
            'no validators to lint: neither .avp/validators/ nor ~/.avp/validators/ exists',
            {
              fix: 'pass files or folders (`avp lint path/to/validator.md`), or create a validator with `avp new <name>`',
            },
          );
        }
      }
      const messages = await lintPaths(paths);
      const errors = messages.filter((m) => m.level === 'error').length;
      const warnings = messages.length - errors;
      if (args.json) {
        process.stdout.write(`${JSON.stringify({ errors, warnings, messages }, null, 2)}\n`);
      } else {
        for (const m of messages) process.stdout.write(`${formatLint(m, process.cwd())}\n`);
        const { logger } = await import('../logger.ts');
        const log = await logger();
        const summary = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} in ${paths.join(', ')}`;
        if (errors) log.error(summary);
        else log.success(summary);
      }
      return errors ? 1 : 0;
    }),
});
