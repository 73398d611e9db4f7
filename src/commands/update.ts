import { join } from 'node:path';
import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'update',
    description: 'Update installed validators within the range recorded at `avp add` (or to the latest with --latest)',
  },
  args: {
    name: {
      type: 'positional',
      required: false,
      description: 'Validator name (default: every validator of the scope)',
    },
    user: { type: 'boolean', description: 'User scope (default)' },
    project: { type: 'boolean', description: 'Project scope' },
    latest: {
      type: 'boolean',
      description: "Ignore the recorded range: go to the registry's latest and record `latest`",
    },
    registry: { type: 'string', description: 'Registry base URL (default: the one each package came from)' },
    force: { type: 'boolean', description: 'Also replace validators edited since avp installed them (edits are lost)' },
    json: { type: 'boolean', description: 'Print the results as JSON on stdout' },
    quiet: { type: 'boolean', description: 'Print nothing but errors' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [
        { updateValidators },
        { scopeOf, applyQuiet, printJson },
        { terminalProgress },
        { findProjectRoot },
        { logger },
      ] = await Promise.all([
        import('../registry-client/update.ts'),
        import('../registry-client/cli-args.ts'),
        import('../registry-client/progress.ts'),
        import('../paths.ts'),
        import('../logger.ts'),
      ]);
      applyQuiet(args);
      const progress = terminalProgress('downloading', args);
      const scope = scopeOf(args);
      const projectRoot = findProjectRoot(process.cwd());
      const results = await updateValidators({
        names: args.name ? [args.name] : undefined,
        scope,
        projectRoot,
        registry: args.registry,
        latest: args.latest,
        force: args.force,
        progress: progress.onProgress,
      }).finally(() => progress.done());
      const log = await logger();
      // The user ran this: the updated validators are accepted (inside an agent they wait for `avp accept`).
      const [{ acceptWrittenPaths }, { lockfilePath, scopeValidatorsDir }] = await Promise.all([
        import('../trust/accept.ts'),
        import('../registry-client/lockfile.ts'),
      ]);
      const dirs = results
        .filter((r) => r.status === 'updated')
        .map((r) => join(scopeValidatorsDir(scope, projectRoot), r.name));
      const waiting = dirs.length
        ? acceptWrittenPaths(projectRoot, process.env, [...dirs, lockfilePath(scope, projectRoot)])
        : undefined;
      if (waiting) log.warn(waiting);
      if (args.json) return printJson(results);
      if (!results.length) {
        const other = scope === 'user' ? 'project' : 'user';
        const { readLockfile } = await import('../registry-client/lockfile.ts');
        const there = Object.keys(readLockfile(lockfilePath(other, projectRoot)).packages).length;
        log.info(
          `nothing installed in the ${scope} scope (avp looked in ${lockfilePath(scope, projectRoot)})` +
            (there ? `; the ${other} scope has ${there}: avp update --${other}` : ''),
        );
      }
      for (const r of results) {
        if (r.status === 'updated') log.success(`${r.name} ${r.from} → ${r.to}`);
        else if (r.status === 'current') log.info(`${r.name}@${r.from} is up to date`);
        else log.info(`${r.name}@${r.from} skipped (${r.reason})`);
      }
    });
  },
});
