/** `avp upgrade`: replaces this avp with the newest release (or `--version`), checksum-verified, atomically. */
import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: { name: 'upgrade', description: 'Replace this avp with the newest release (sha256-verified, atomic)' },
  args: {
    version: { type: 'string', description: 'Install this release (e.g. 0.2.0) instead of the newest' },
    check: { type: 'boolean', description: 'Only say whether a newer release exists; change nothing' },
    force: { type: 'boolean', description: 'Install even when that version is the one running' },
    'release-url': {
      type: 'string',
      description: 'Where releases live (<url>/v<version>/<asset>); default: AVP_RELEASE_URL, else the built-in one',
    },
    json: { type: 'boolean', description: 'Print the result as JSON on stdout' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ upgrade }, { logger }] = await Promise.all([import('../upgrade/upgrade.ts'), import('../logger.ts')]);
      const r = await upgrade({
        version: args.version,
        check: args.check,
        force: args.force,
        releaseUrl: args['release-url'],
      });
      if (args.json) return void process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
      const log = await logger();
      if (r.status === 'up-to-date') return log.success(`avp ${r.from} is the newest release`);
      if (r.status === 'available') return log.info(`avp ${r.to} is available (this is ${r.from}): run avp upgrade`);
      log.success(`avp ${r.from} → ${r.to} (${r.asset}, sha256 ${r.sha256}) in ${r.path}`);
      if (r.kept) log.info(`the previous binary is kept as ${r.kept} until the next upgrade`);
    });
  },
});
