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
    script: { type: 'boolean', description: 'A script validator (<name>/scripts/check.ts): no model needed' },
    force: { type: 'boolean', description: 'Create an LLM validator even when no judge can evaluate it yet' },
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
      if (args.script && args.rules)
        throw new AvpError('new-form', '--script and --rules are exclusive', {
          fix: 'a script validator is one directory with scripts/check.ts: drop --rules',
        });
      const [{ scaffoldValidator, checkScaffoldOptions }, paths] = await Promise.all([
        import('../validator/scaffold.ts'),
        import('../paths.ts'),
      ]);
      const source = args.user ? 'user' : 'project';
      const cwd = process.cwd();
      const options = {
        name: String(args.name),
        root: source === 'user' ? paths.userValidatorsDir() : paths.projectValidatorsDir(paths.findProjectRoot(cwd)),
        source,
        form: args.rules ? 'ruleset' : args.dir || args.script ? 'directory' : 'file',
        script: !!args.script,
        ...(args.trigger ? { trigger: String(args.trigger) } : {}),
        ...(args.severity ? { severity: String(args.severity) } : {}),
      } as const;
      checkScaffoldOptions(options);
      if (!args.script && !args.force) {
        // Without a judge an LLM validator fails closed: every change it matches would be blocked. Say so first.
        const { defaultJudgeProblem } = await import('../judges/add-check.ts');
        const problem = await defaultJudgeProblem({ projectRoot: paths.findProjectRoot(cwd), cwd, env: process.env });
        if (problem)
          throw new AvpError(
            'new-no-judge',
            `\`${args.name}\` would be an LLM validator, and no judge can evaluate it: ${problem}. ` +
              'Created anyway, every change it matches would be blocked ("could not be evaluated": avp fails closed).',
            {
              fix:
                `\`avp new ${args.name} --script\` writes a script validator that needs no model; or configure a ` +
                `judge (\`avp doctor\` says how) and run this again; \`avp new ${args.name} --force\` creates the ` +
                'LLM validator anyway. Nothing was written.',
            },
          );
      }
      const made = await scaffoldValidator(options);
      // The user ran this: every file of the new validator is accepted together (its references/, rules/ or
      // scripts/ too; inside an agent they wait for `avp accept`).
      const { acceptWrittenPaths } = await import('../trust/accept.ts');
      const waiting = acceptWrittenPaths(paths.findProjectRoot(process.cwd()), process.env, made.files);
      if (waiting) process.stderr.write(`${waiting}\n`);
      if (args.json) {
        process.stdout.write(`${JSON.stringify(made, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${made.path}\n`);
      const { logger } = await import('../logger.ts');
      (await logger()).success(
        args.script
          ? `Created script validator \`${made.name}\` (${made.source}). Edit scripts/check.ts, then try it with ` +
              '`avp check <file>`.'
          : `Created ${made.form} validator \`${made.name}\` (${made.source}). Edit its prompt, then run \`avp lint ${made.path}\`.`,
      );
    }),
});
