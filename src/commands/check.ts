/**
 * `avp check`: run the validators outside an agent (CI, pre-commit, branch review). Changed files become
 * PostToolUse Write/Edit events; Stop validators see all changes at once. Exit 1 on ERROR, 0 otherwise — and 0 with
 * a note on stderr when the kill switch is on (`AVP_DISABLE=1`, `"disabled": true`), as in hook mode.
 * Ctrl-C / SIGTERM / SIGHUP stop every running judge's process tree; the exit code is then 130 / 143 / 129.
 * Revision ranges are judged by the rules of their base unless `--rules head` (src/check/rules.ts).
 */
import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'check',
    description:
      'Validate changes outside an agent: the working tree, staged changes, a revision range, or given files',
  },
  args: {
    paths: {
      type: 'positional',
      required: false,
      description: 'Files or folders to check as whole new files (default: changes vs HEAD plus untracked files)',
    },
    diff: { type: 'string', description: 'Check changes since REV (REV → working tree), or a range A..B / A...B' },
    staged: { type: 'boolean', description: 'Check the staged changes (HEAD → index), for pre-commit hooks' },
    rules: {
      type: 'string',
      description:
        "Whose rules judge the change: base (the default for --diff: the base's config and validators, so a change " +
        "cannot switch its own check off) or head (the change's own)",
    },
    event: { type: 'string', description: 'Only this event: PostToolUse (one per file) or Stop (all changes at once)' },
    json: {
      type: 'boolean',
      description:
        'Print the aggregated report as JSON (outcome, violations, summary, plus events, files and token usage)',
    },
    format: {
      type: 'string',
      description:
        'Report format: text, json, sarif, github (workflow annotations) or junit; NAME=FILE writes one to a file ' +
        '(e.g. --format github,sarif=avp.sarif)',
    },
    cache: {
      type: 'boolean',
      default: true,
      description: 'Reuse stored verdicts and parsed validators (--no-cache asks every judge again)',
    },
  },
  run: ({ args }) =>
    runCommand(async () => {
      (await import('../os/signals.ts')).exitOnSignals();
      const [
        { runCheck },
        { parseFormats, renderCheck, formatContext, writeReportFile },
        { findProjectRoot },
        { AvpError },
      ] = await Promise.all([
        import('../check/run.ts'),
        import('../check/format.ts'),
        import('../paths.ts'),
        import('../errors.ts'),
      ]);
      const paths = (args._ as string[]).filter(Boolean);
      if ([paths.length > 0, !!args.diff, !!args.staged].filter(Boolean).length > 1) {
        throw new AvpError('check-args', 'give files, --diff or --staged, not several', {
          fix: 'pick one source of changes',
        });
      }
      const cwd = process.cwd();
      // Checked before any judge is asked: a typo in --format must not cost a run.
      const targets = parseFormats(args.format, !!args.json, cwd);
      const env = args.cache === false ? { ...process.env, AVP_NO_CACHE: '1' } : process.env;
      const projectRoot = findProjectRoot(cwd);
      const result = await runCheck({
        projectRoot,
        cwd,
        paths,
        diff: args.diff,
        staged: !!args.staged,
        event: args.event,
        rules: args.rules,
        env,
      });
      if (result.disabled) {
        const { logger } = await import('../logger.ts');
        (await logger()).warn(
          `avp is disabled (${result.disabled}): no validator ran, nothing was checked; ` +
            `${result.disabled.startsWith('AVP_DISABLE') ? 'unset AVP_DISABLE' : 'remove "disabled": true'} to check`,
        );
      }
      const ctx = formatContext(projectRoot, (await import('../version.ts')).VERSION);
      for (const t of targets) {
        const text = await renderCheck(result, t.format, ctx);
        if (t.file) writeReportFile(t.file, text);
        else process.stdout.write(text);
      }
      return result.report.outcome === 'ERROR' ? 1 : 0;
    }),
});
