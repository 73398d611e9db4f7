import { defineCommand } from 'citty';
import { userInfo } from 'node:os';
import { runCommand } from '../run-command.ts';
import { dataDirOf, dbOf, storeArgs } from './shared-args.ts';

/**
 * `avp registry purge name@version --reason "…"`: permanent removal for legal takedowns, on the store directly (an
 * admin with machine access, like `token create`), audit-logged. Yanking (`avp yank`) is the normal withdrawal.
 */
export default defineCommand({
  meta: {
    name: 'purge',
    description:
      'Delete one version for good (legal takedowns): its record and archive; audit-logged. `avp yank` withdraws normally',
  },
  args: {
    spec: { type: 'positional', required: true, description: 'name@version (one exact version)' },
    reason: { type: 'string', description: 'Why (recorded in the audit log, e.g. the takedown request); required' },
    by: { type: 'string', description: 'Who purges, for the audit log (default: the system user name)' },
    json: { type: 'boolean', description: 'Print the result as JSON on stdout', default: false },
    ...storeArgs,
  },
  async run({ args }) {
    await runCommand(async () => {
      const [{ Store }, { BlobStore }, { parsePurgeSpec, purgeVersion }] = await Promise.all([
        import('../../../registry/store.ts'),
        import('../../../registry/blobs.ts'),
        import('../../../registry/purge.ts'),
      ]);
      const spec = parsePurgeSpec(args.spec);
      const dataDir = dataDirOf(args.data);
      const store = await Store.open(dataDir, dbOf(args.db));
      try {
        const r = await purgeVersion(store, new BlobStore(dataDir), spec, {
          actor: args.by || userInfo().username,
          reason: args.reason ?? '',
        });
        if (args.json) {
          process.stdout.write(`${JSON.stringify(r)}\n`);
          return;
        }
        process.stderr.write(
          `purged ${r.name}@${r.version} (${r.integrity.slice(0, 20)}…)${r.archiveRemoved ? '' : '; its archive stays for another version with the same bytes'}; ` +
            `latest is now ${r.latest ?? 'none (the name stays with its owners)'}; recorded in the audit log\n` +
            'lockfiles pinning it can no longer install it; re-run `avp registry export` if you serve a static copy\n',
        );
      } finally {
        await store.close();
      }
    });
  },
});
