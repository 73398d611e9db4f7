/**
 * `avp report`: the run logs as one self-contained HTML page of charts — latency per validator over time, blocks per
 * day, tokens and cost per day, the validators that block most and the files they block on.
 */
import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'report',
    description: 'Write an HTML report of what the validators did and cost (one file: no network, no scripts)',
  },
  args: {
    since: { type: 'string', description: 'Only runs since a duration back (90m, 24h, 7d, 2w) or a date (2025-06-01)' },
    out: {
      type: 'string',
      description: 'Where to write it (default .avp/logs/report.html in the project; - for stdout)',
    },
  },
  run: ({ args }) =>
    runCommand(async () => {
      const [{ loadPeriod, skippedNote }, { buildReport, writeReport }, { printable }, { resolve, join }] =
        await Promise.all([
          import('../stats/load.ts'),
          import('../report/write.ts'),
          import('../stats/format.ts'),
          import('node:path'),
        ]);
      const loaded = await loadPeriod({ cwd: process.cwd(), since: args.since });
      const note = skippedNote(loaded.data, loaded.projectRoot);
      if (note) process.stderr.write(`avp: ${printable(note)}\n`);
      const html = buildReport(loaded);
      if (args.out === '-') {
        process.stdout.write(html);
        return;
      }
      const out = args.out ? resolve(args.out) : join(loaded.projectRoot, '.avp', 'logs', 'report.html');
      writeReport(out, html);
      const runs = loaded.data.runs.length;
      process.stderr.write(`avp: report of ${runs} validator run${runs === 1 ? '' : 's'} written\n`);
      process.stdout.write(`${out}\n`);
    }),
});
