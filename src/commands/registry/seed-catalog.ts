import { defineCommand } from 'citty';
import { AvpError } from '../../errors.ts';
import { runCommand } from '../run-command.ts';

/** `avp registry seed-catalog --registry URL`: publish the first-party catalog to a registry in one command. */
export default defineCommand({
  meta: {
    name: 'seed-catalog',
    description:
      'Publish every first-party catalog validator to a registry (repeatable: existing versions are skipped).',
  },
  args: {
    registry: {
      type: 'string',
      description: 'Registry base URL (default: AVP_REGISTRY_URL; required one way or the other)',
    },
    token: {
      type: 'string',
      description: 'Publish token (default: AVP_TOKEN, else the credentials of `avp login` for that registry)',
    },
    only: { type: 'string', description: 'Comma-separated catalog names to publish (default: all)' },
    json: { type: 'boolean', description: 'Print the results as JSON', default: false },
  },
  async run({ args }) {
    await runCommand(async () => {
      const registry = args.registry || process.env.AVP_REGISTRY_URL;
      if (!registry) {
        throw new AvpError('registry-missing', 'no registry given', {
          fix: 'pass --registry http://host:port (your server), or set AVP_REGISTRY_URL',
        });
      }
      const { tokenFor } = await import('../../registry-client/credentials.ts');
      const token = args.token || tokenFor(registry)?.token;
      if (!token) {
        throw new AvpError('not-logged-in', `no token for ${registry}`, {
          fix: 'pass --token, set AVP_TOKEN, or create one: avp registry token create --name <you>',
        });
      }
      const { seedCatalog } = await import('../../../registry/seed-catalog.ts');
      const only = args.only
        ? args.only
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined;
      const results = await seedCatalog({ registry, token, only });
      if (args.json) process.stdout.write(`${JSON.stringify({ registry, results })}\n`);
      else
        for (const r of results)
          process.stdout.write(`${r.status}\t${r.name}@${r.version}${r.detail ? `\t${r.detail}` : ''}\n`);
      return results.some((r) => r.status === 'failed') ? 1 : 0;
    });
  },
});
