#!/usr/bin/env bun
/**
 * Entry point. `avp hook` runs on every tool call of every agent session, so it skips citty and goes straight to
 * its module; every other command line is checked against the command table first (unknown commands and flags are
 * usage errors, exit 2), then run through citty with lazily loaded subcommands.
 */
async function main(argv: string[]): Promise<number | undefined> {
  if (argv[0] === 'hook' && argv.indexOf('--help') < 0 && argv.indexOf('-h') < 0) {
    // The hook shortcut first: a call answered before from a record that still holds costs no more than reading it.
    const { takeShortcut } = await import('./hook/shortcut/answer.ts');
    const taken = await takeShortcut(argv.slice(1), process.env);
    if (taken.answered) return 0;
    const { runHookCommand } = await import('./commands/hook.ts');
    return runHookCommand(argv.slice(1), taken.input);
  }
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    const { VERSION } = await import('./version.ts');
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // Every command but the hook may run long: the normal JIT policy (os/jit.ts).
  (await import('./os/jit.ts')).normalJit();
  const [{ runMain }, { rootCommand, usageText, writeUsage }, args, { isAvpError }] = await Promise.all([
    import('citty'),
    import('./commands/usage.ts'),
    import('./commands/args.ts'),
    import('./errors.ts'),
  ]);
  try {
    const resolved = await args.resolveCommand(rootCommand, argv);
    const group = !resolved.cmd.run;
    // Help, and a command group given no command (`avp`, `avp registry`): the help screen, exit 0.
    if (args.wantsHelp(resolved.rest) || (group && resolved.rest.length === 0)) {
      writeUsage(await usageText(resolved.cmd, resolved.path));
      return 0;
    }
    await args.checkArgs(resolved);
  } catch (e) {
    if (!isAvpError(e) || e.code !== 'usage') throw e;
    process.stderr.write(`avp: ${e.describe()}\n`);
    return 2;
  }
  // The checks above leave citty nothing to refuse; should it still, its message alone says why (no usage dump).
  await runMain(rootCommand, { rawArgs: argv, showUsage: async () => {} });
  return undefined;
}

export {};
const code = await main(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
