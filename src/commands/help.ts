/** `avp help [command…]`: the same help screen as `avp <command> --help` (`avp help` alone: every command). */
import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: { name: 'help', description: 'Show the help of avp or of a command, e.g. `avp help check`' },
  args: {
    command: {
      type: 'positional',
      required: false,
      description: 'The command (and subcommand), e.g. check, or registry token',
    },
  },
  run: ({ args }) =>
    runCommand(async () => {
      const { printHelp } = await import('./usage.ts');
      await printHelp((args._ as string[]).filter(Boolean));
    }),
});
