#!/usr/bin/env bun
import { VERSION } from './version.ts';

/**
 * Entry point. `avp hook` runs on every tool call of every agent session, so it skips citty and goes straight to
 * its module; every other command goes through citty with lazily loaded subcommands.
 */
async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'hook' && !argv.includes('--help') && !argv.includes('-h')) {
    const { runHookCommand } = await import('./commands/hook.ts');
    process.exitCode = await runHookCommand(argv.slice(1));
    return;
  }
  const [{ defineCommand, renderUsage, runMain }, { commands }] = await Promise.all([
    import('citty'),
    import('./commands/index.ts'),
  ]);
  const main = defineCommand({
    meta: {
      name: 'avp',
      version: VERSION,
      description: "Agent Validator Protocol runtime: validate coding agents' changes with VALIDATOR.md sub-agents.",
    },
    subCommands: commands,
  });
  await runMain(main, {
    rawArgs: argv,
    // citty colours its usage even into a pipe; colour only a terminal (and never with NO_COLOR).
    showUsage: async (cmd, parent) => {
      const text = await renderUsage(cmd, parent);
      const plain = !process.stdout.isTTY || Boolean(process.env.NO_COLOR);
      process.stdout.write(`${plain ? text.replace(/\x1b\[[0-9;]*m/g, '') : text}\n`);
    },
  });
}

await main(process.argv.slice(2));
