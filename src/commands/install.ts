import { defineCommand } from 'citty';
import { join } from 'node:path';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'install',
    description: 'Install exactly what the lockfile says (project .avp/avp-lock.json by default), verifying integrity',
  },
  args: {
    frozen: {
      type: 'boolean',
      description: 'Never write the lockfile; fail if an installed validator differs from it (CI)',
    },
    force: {
      type: 'boolean',
      description: 'Also replace validators edited since avp installed them (the edits are lost)',
    },
    user: { type: 'boolean', description: 'Restore the user scope (~/.avp/avp-lock.json) instead of the project' },
    json: { type: 'boolean', description: 'Print the results as JSON on stdout' },
    quiet: { type: 'boolean', description: 'Print nothing but errors' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [
        { restoreFromLockfile },
        { applyQuiet, printJson },
        { terminalProgress },
        { findProjectRoot },
        { logger },
      ] = await Promise.all([
        import('../registry-client/restore.ts'),
        import('../registry-client/cli-args.ts'),
        import('../registry-client/progress.ts'),
        import('../paths.ts'),
        import('../logger.ts'),
      ]);
      applyQuiet(args);
      const progress = terminalProgress('downloading', args);
      const scope = args.user ? 'user' : 'project';
      const projectRoot = findProjectRoot(process.cwd());
      const { refuseUnacceptedLockfile } = await import('../trust/accept.ts');
      refuseUnacceptedLockfile(scope, projectRoot, process.env);
      const results = await restoreFromLockfile({
        scope,
        projectRoot,
        frozen: args.frozen,
        force: args.force,
        progress: progress.onProgress,
      }).finally(() => progress.done());
      const log = await logger();
      // The user ran this: what the (accepted) lockfile installed is accepted too.
      const [{ acceptWrittenPaths }, { scopeValidatorsDir }] = await Promise.all([
        import('../trust/accept.ts'),
        import('../registry-client/lockfile.ts'),
      ]);
      const dirs = results
        .filter((r) => r.action !== 'unchanged')
        .map((r) => join(scopeValidatorsDir(scope, projectRoot), r.name));
      const waiting = dirs.length ? acceptWrittenPaths(projectRoot, process.env, dirs) : undefined;
      if (waiting) log.warn(waiting);
      if (args.json) return printJson(results);
      const changed = results.filter((r) => r.action !== 'unchanged');
      for (const r of changed) log.success(`${r.action} ${r.name}@${r.version}`);
      log.info(`${results.length} validator(s) match the lockfile (${changed.length} installed now)`);
    });
  },
});
