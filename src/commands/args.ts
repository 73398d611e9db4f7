/**
 * The one place where a command line is checked before any command runs: unknown commands and flags, flags missing
 * their value, arguments no command takes, and missing required ones are usage errors (exit 2) with a did-you-mean
 * and a pointer to the command's help. citty alone ignores unknown flags (a typo of --staged made `check` check the
 * whole tree); nothing gets that far now.
 */
import type { ArgDef, CommandDef } from 'citty';
import { didYouMean } from '../did-you-mean.ts';
import { AvpError } from '../errors.ts';

type Def = CommandDef<any>;
type Table = Record<string, Def | (() => Promise<Def>)>;

/** Commands whose positional argument takes several values (their bodies read `args._`). */
const VARIADIC = new Set(['add', 'check', 'lint', 'search', 'help']);

/** The flags every command understands (citty answers them before a command runs). */
const HELP_FLAGS = ['--help', '-h'];

/** A command line that does not fit the command table. `avp` prints it and exits 2. */
export function usageError(message: string, path: string[]): AvpError {
  return new AvpError('usage', message, { fix: `see \`${['avp', ...path].join(' ')} --help\`` });
}

async function value<T>(x: T | (() => T | Promise<T>) | Promise<T>): Promise<T> {
  return typeof x === 'function' ? (x as () => T)() : x;
}

export interface ResolvedCommand {
  /** Command names from the root, e.g. `['registry', 'token', 'create']` (empty for `avp` itself). */
  path: string[];
  cmd: Def;
  /** What follows the command names: the command's own flags and arguments. */
  rest: string[];
}

/**
 * Walks the command names at the start of `argv` down the table. A name that is no command is a usage error with
 * the closest command. Stops at the first flag or at a command without subcommands.
 */
export async function resolveCommand(root: Def, argv: string[]): Promise<ResolvedCommand> {
  let cmd = root;
  const path: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const subs = (await value(cmd.subCommands)) as Table | undefined;
    const name = argv[i] as string;
    if (!subs || name.startsWith('-')) break;
    const sub = Object.hasOwn(subs, name) ? subs[name] : undefined;
    if (!sub) {
      const where = path.length ? `avp ${path.join(' ')}` : 'avp';
      throw usageError(`unknown command "${name}" for ${where}${didYouMean(name, Object.keys(subs))}`, path);
    }
    cmd = await value(sub);
    path.push(name);
  }
  return { path, cmd, rest: argv.slice(i) };
}

/** Whether the command line asks for help (before a `--`). */
export function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => HELP_FLAGS.includes(a));
}

const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** Every spelling of every flag of a command → its definition (citty also accepts the camelCase form). */
function flagTable(args: Record<string, ArgDef>): Map<string, { name: string; def: ArgDef }> {
  const out = new Map<string, { name: string; def: ArgDef }>();
  for (const [name, def] of Object.entries(args)) {
    if (def.type === 'positional') continue;
    const camel = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    for (const spelling of new Set([name, kebab(name), camel])) out.set(`--${spelling}`, { name, def });
    const alias = 'alias' in def ? def.alias : undefined;
    const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
    for (const a of aliases) out.set(a.length === 1 ? `-${a}` : `--${a}`, { name, def });
  }
  return out;
}

/** The flags as a person writes them, for suggestions: `--staged`, `--no-cache`, `-h`. */
function flagSpellings(args: Record<string, ArgDef>): string[] {
  const out = ['--help'];
  for (const [name, def] of Object.entries(args)) {
    if (def.type === 'positional') continue;
    out.push(`--${name}`);
    if (def.type === 'boolean') out.push(`--no-${name}`);
  }
  return out;
}

/**
 * Checks a command's own flags and arguments against its definition. Throws a usage error for the first problem;
 * returns nothing when citty can take it from here.
 */
export async function checkArgs(resolved: ResolvedCommand): Promise<void> {
  const { path, cmd, rest } = resolved;
  const args = ((await value(cmd.args)) ?? {}) as Record<string, ArgDef>;
  const flags = flagTable(args);
  const where = `avp ${path.join(' ')}`.trimEnd();
  const positionals: string[] = [];
  const given = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--') {
      positionals.push(...rest.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (HELP_FLAGS.includes(arg)) continue;
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const known = flags.get(flag);
    const negated = !known && flag.startsWith('--no-') ? flags.get(`--${flag.slice(5)}`) : undefined;
    if (negated) {
      if (negated.def.type !== 'boolean' || inline !== undefined)
        throw usageError(`${flag} is not a flag of ${where}: --${negated.name} takes a value`, path);
      given.add(negated.name);
      continue;
    }
    if (!known) {
      const hint = didYouMean(flag, flagSpellings(args));
      throw usageError(`unknown flag ${flag} for ${where}${hint}`, path);
    }
    given.add(known.name);
    if (known.def.type === 'boolean') {
      if (inline !== undefined && inline !== 'true' && inline !== 'false')
        throw usageError(`--${known.name} is a switch: write --${known.name} or --no-${known.name}`, path);
      continue;
    }
    if (inline !== undefined) continue;
    const next = rest[i + 1];
    // A value may be `-` (stdin) or a negative number; any other dash word is the next flag, not a value.
    if (next === undefined || (next.startsWith('-') && next !== '-' && !/^-\d/.test(next)))
      throw usageError(`--${known.name} needs a value${next === undefined ? '' : ` (got the flag ${next})`}`, path);
    i++;
  }
  const expected = Object.entries(args).filter(([, d]) => d.type === 'positional');
  const variadic = VARIADIC.has(path.join(' '));
  if (positionals.length > expected.length && !variadic) {
    const extra = positionals[expected.length] as string;
    const subs = (await value(cmd.subCommands)) as Table | undefined;
    const takes = expected.length
      ? `takes ${expected.length} argument${expected.length === 1 ? '' : 's'}`
      : 'takes no arguments';
    const hint = subs ? didYouMean(extra, Object.keys(subs)) : '';
    throw usageError(`unexpected argument "${extra}": ${where} ${takes}${hint}`, path);
  }
  for (const [index, [name, def]] of expected.entries()) {
    if (def.required !== false && def.default === undefined && positionals[index] === undefined)
      throw usageError(`${where} needs <${name.toUpperCase()}>`, path);
  }
  for (const [name, def] of Object.entries(args)) {
    if (def.type !== 'positional' && def.required === true && def.default === undefined && !given.has(name))
      throw usageError(`${where} needs --${name}`, path);
  }
}
