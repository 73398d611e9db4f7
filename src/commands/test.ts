/**
 * `avp test [NAME|PATH]…`: runs the cases each validator carries in its `tests/` folder through the hook's path
 * (match, judge, aggregation) and reports per validator and per rule: cases, passed, missed, false alarms. Exit 1
 * when any case fails. LLM validators are asked their configured judge, `--repeat N` times per case; stored
 * verdicts are reused only with `--cache`.
 */
import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'test',
    description: "Run validators' own test cases (their tests/ folder): per rule, cases, passed, missed, false alarms",
  },
  args: {
    targets: {
      type: 'positional',
      required: false,
      description: 'Validator names or folders (default: every installed validator, project and user)',
    },
    json: { type: 'boolean', description: 'Print the results as JSON (every case, its answers, the per-rule table)' },
    junit: { type: 'string', description: 'Also write JUnit XML to FILE (for CI)' },
    repeat: {
      type: 'string',
      default: '1',
      description: 'Ask each case N times and count how often the verdict agrees',
    },
    cache: {
      type: 'boolean',
      default: false,
      description: 'Reuse stored verdicts (default: every case asks the judge)',
    },
  },
  run: ({ args }) =>
    runCommand(async () => {
      (await import('../os/signals.ts')).exitOnSignals();
      const [{ runTests }, format, { findProjectRoot }, { AvpError }, { writeReportFile }] = await Promise.all([
        import('../validator-tests/targets.ts'),
        import('../validator-tests/format.ts'),
        import('../paths.ts'),
        import('../errors.ts'),
        import('../check/format.ts'),
      ]);
      const repeat = Number(args.repeat);
      if (!Number.isInteger(repeat) || repeat < 1 || repeat > 100)
        throw new AvpError('test-args', `--repeat ${args.repeat} is not a whole number from 1 to 100`, {
          fix: 'e.g. --repeat 5',
        });
      const cwd = process.cwd();
      const results = await runTests({
        projectRoot: findProjectRoot(cwd),
        cwd,
        env: process.env,
        targets: (args._ as string[]).filter(Boolean),
        repeat,
        cache: !!args.cache,
      });
      if (args.junit) writeReportFile(args.junit, format.renderJunit(results));
      process.stdout.write(args.json ? format.renderJson(results) : format.renderText(results, repeat));
      if (!results.some((r) => !r.noTests)) {
        const { logger } = await import('../logger.ts');
        (await logger()).warn('no validator here has tests: add cases under <validator>/tests/ (docs/testing.md)');
      }
      return format.failed(results).length ? 1 : 0;
    }),
});
