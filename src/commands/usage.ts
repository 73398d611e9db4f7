/**
 * The root command and help screens: `avp --help`, `avp <command> --help`, `avp help [command]` and bare `avp` all
 * print the same text, coloured only for a terminal.
 */
import type { CommandDef } from 'citty';
import { useColour, stripColour } from '../logger.ts';
import { VERSION } from '../version.ts';
import { resolveCommand } from './args.ts';
import { commands } from './index.ts';

/** `avp` itself: every command of the table as a lazily loaded subcommand. */
export const rootCommand: CommandDef<any> = {
  meta: {
    name: 'avp',
    version: VERSION,
    description: "Agent Validator Protocol runtime: validate coding agents' changes with VALIDATOR.md sub-agents.",
  },
  subCommands: commands,
};

/** The help screen of the command at `path`: avp's own (`[]`) one line per command; a command's as citty renders it. */
export async function usageText(cmd: CommandDef<any>, path: string[]): Promise<string> {
  if (!path.length) return (await import('./root-help.ts')).rootHelpText();
  const { renderUsage } = await import('citty');
  // citty names a command by its parent's name + its own: give it the whole path as the parent's name.
  const parent = path.length
    ? { meta: { name: ['avp', ...path.slice(0, -1)].join(' '), version: VERSION } }
    : undefined;
  return renderUsage(cmd, parent);
}

/** Writes a help screen, without colour codes unless the stream is a terminal (NO_COLOR and FORCE_COLOR apply). */
export function writeUsage(text: string, stream: NodeJS.WriteStream = process.stdout): void {
  stream.write(`${useColour(stream) ? text : stripColour(text)}\n`);
}

/** Prints the help of the command named by `names` (usage error for a name that is no command). */
export async function printHelp(names: string[]): Promise<void> {
  const resolved = await resolveCommand(rootCommand, names);
  if (resolved.rest.length) {
    const { usageError } = await import('./args.ts');
    throw usageError(`"${resolved.rest[0]}" is not a command`, resolved.path);
  }
  writeUsage(await usageText(resolved.cmd, resolved.path));
}
