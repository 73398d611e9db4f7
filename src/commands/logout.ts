import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: { name: 'logout', description: 'Revoke the stored registry token and delete ~/.avp/credentials' },
  args: {
    json: { type: 'boolean', description: 'Print the result as JSON on stdout' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ logout }, { printJson }, { logger }] = await Promise.all([
        import('../registry-client/login.ts'),
        import('../registry-client/cli-args.ts'),
        import('../logger.ts'),
      ]);
      const r = await logout();
      if (args.json) return printJson(r);
      const log = await logger();
      if (!r.removed) return log.info('not logged in');
      if (!r.revoked)
        log.warn(
          `could not revoke the token on ${r.registry}; it was deleted locally — revoke it on the registry if it may have leaked`,
        );
      log.success(`logged out of ${r.registry}`);
    });
  },
});
