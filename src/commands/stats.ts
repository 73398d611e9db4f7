/**
 * `avp stats`: what each validator costs and does, from the project's run logs — runs and outcomes, verdict-cache
 * hits, latency percentiles, tokens, estimated cost, and the share of the agent's calls it added latency to.
 */
import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'stats',
    description:
      'Per validator: runs, passed/warned/blocked/errors, cache hits, p50/p95/max time, tokens, estimated cost, share of calls slowed',
  },
  args: {
    since: { type: 'string', description: 'Only runs since a duration back (90m, 24h, 7d, 2w) or a date (2025-06-01)' },
    validator: { type: 'string', description: 'Only this validator' },
    json: {
      type: 'boolean',
      description:
        'Print the numbers as JSON (validators, total, agentCalls, skipped lines, spend against the budgets)',
    },
  },
  run: ({ args }) =>
    runCommand(async () => {
      const [{ loadPeriod, skippedNote }, { computeStats }, { formatStats, printable }, { formatSpend, spendSummary }] =
        await Promise.all([
          import('../stats/load.ts'),
          import('../stats/aggregate.ts'),
          import('../stats/format.ts'),
          import('../stats/spend.ts'),
        ]);
      const { projectRoot, data, prices, since, config } = await loadPeriod({
        cwd: process.cwd(),
        since: args.since,
        validator: args.validator,
      });
      const stats = computeStats(data, prices, { validator: args.validator, since });
      const note = skippedNote(data, projectRoot);
      if (note) process.stderr.write(`avp: ${printable(note)}\n`);
      const spend = spendSummary(config);
      process.stdout.write(
        args.json ? `${JSON.stringify({ ...stats, spend }, null, 2)}\n` : `${formatStats(stats)}${formatSpend(spend)}`,
      );
    }),
});
