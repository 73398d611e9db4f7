import { AvpError } from '../errors.ts';
import type { Scope } from './lockfile.ts';

/** Args shared by the registry client commands. */
export const registryArg = { type: 'string', description: 'Registry base URL (default: AVP_REGISTRY_URL, config registry.url, https://registry.mirdan.ai)' } as const;
export const jsonArg = { type: 'boolean', description: 'Print machine-readable JSON on stdout' } as const;
export const quietArg = { type: 'boolean', description: 'Print nothing but errors' } as const;
export const userArg = { type: 'boolean', description: 'User scope: ~/.avp/validators (default)' } as const;
export const projectArg = { type: 'boolean', description: 'Project scope: <project>/.avp/validators' } as const;

/** `--user` (default) or `--project`; both is an error. */
export function scopeOf(args: { user?: boolean; project?: boolean }): Scope {
  if (args.user && args.project) throw new AvpError('args-scope', 'pass either --user or --project, not both', { fix: 'choose one scope' });
  return args.project ? 'project' : 'user';
}

/** --quiet silences the stderr logger (it reads AVP_QUIET when first created). */
export function applyQuiet(args: { quiet?: boolean; json?: boolean }): void {
  if (args.quiet) process.env.AVP_QUIET = '1';
}

/** One JSON document on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
