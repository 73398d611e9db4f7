import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: { name: 'new', description: 'Create a validator skeleton that passes `avp lint` (never overwrites)' },
  args: {
    name: {
      type: 'positional',
      required: true,
      description: 'Validator name: a-z, 0-9 and single hyphens, e.g. no-console',
    },
    project: { type: 'boolean', description: 'Create it in the project: .avp/validators/ (default)' },
    user: { type: 'boolean', description: 'Create it for the user: ~/.avp/validators/ (AVP_HOME)' },
    dir: { type: 'boolean', description: 'Directory form: <name>/VALIDATOR.md with references/' },
    rules: { type: 'boolean', description: 'RuleSet form: <name>/VALIDATOR.md with rules/*.md' },
    trigger: { type: 'string', description: 'Hook event that runs it (default PostToolUse)' },
    severity: { type: 'string', description: 'info, warn or error (default warn)' },
    json: { type: 'boolean', description: 'Print JSON: { name, form, source, path, files }' },
  },
  run: ({ args }) =>
    runCommand(async () => {
      const { AvpError } = await import('../errors.ts');
      if (args.project && args.user)
        throw new AvpError('new-scope', '--project and --user are exclusive', { fix: 'pass one of them' });
      if (args.dir && args.rules)
        throw new AvpError('new-form', '--dir and --rules are exclusive', {
          fix: '--rules already creates a directory',
        });
      const [{ scaffoldValidator }, paths] = await Promise.all([
        import('../validator/scaffold.ts'),
        import('../paths.ts'),
      ]);
      const source = args.user ? 'user' : 'project';
      const root =
        source === 'user'
          ? paths.userValidatorsDir()
          : paths.projectValidatorsDir(paths.findProjectRoot(process.cwd()));
      const made = await scaffoldValidator({
        name: String(args.name),
        root,
        source,
        form: args.rules ? 'ruleset' : args.dir ? 'directory' : 'file',
        ...(args.trigger ? { trigger: String(args.trigger) } : {}),
        ...(args.severity ? { severity: String(args.severity) } : {}),
      });
      // The user ran this: the new validator is accepted (inside an agent it waits for `avp accept`).
      const { acceptWrittenPaths } = await import('../trust/accept.ts');
      const waiting = acceptWrittenPaths(paths.findProjectRoot(process.cwd()), process.env, [made.path]);
      if (waiting) process.stderr.write(`${waiting}\n`);
      if (args.json) {
        process.stdout.write(`${JSON.stringify(made, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${made.path}\n`);
      const { logger } = await import('../logger.ts');
      (await logger()).success(
        `Created ${made.form} validator \`${made.name}\` (${made.source}). Edit its prompt, then run \`avp lint ${made.path}\`.`,
      );
    }),
});
