/**
 * `avp accept`: the user's acceptance of changes to avp's validators, config and hooks. Until then, hook mode keeps
 * running on the state accepted before, so an agent cannot switch its own checks off. Refuses inside an agent.
 */
import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'accept',
    description:
      "Review and accept changes to avp's validators, config and hooks (until then hook mode runs on the accepted state)",
  },
  args: {
    'dry-run': { type: 'boolean', description: 'Show the pending changes with their diffs; accept nothing' },
    json: { type: 'boolean', description: 'Print the pending (or accepted) changes as JSON on stdout' },
  },
  run: ({ args }) =>
    runCommand(async () => {
      const { runAccept } = await import('../trust/accept-command.ts');
      const result = await runAccept({ cwd: process.cwd(), env: process.env, dryRun: !!args['dry-run'] });
      if (args.json) process.stdout.write(`${JSON.stringify(result.json, null, 2)}\n`);
      else process.stdout.write(result.text);
      return result.exitCode;
    }),
});
