import { AvpError } from '../errors.ts';
import type { Scope } from './lockfile.ts';
import { redactUserinfo } from '../redact.ts';

/** `--user` (default) or `--project`; both is an error. */
export function scopeOf(args: { user?: boolean; project?: boolean }): Scope {
  if (args.user && args.project)
    throw new AvpError('args-scope', 'pass either --user or --project, not both', { fix: 'choose one scope' });
  return args.project ? 'project' : 'user';
}

/** --quiet silences the stderr logger (it reads AVP_QUIET when first created). */
export function applyQuiet(args: { quiet?: boolean }): void {
  if (args.quiet) process.env.AVP_QUIET = '1';
}

/** One JSON document on stdout. */
export function printJson(value: unknown): void {
  // A registry URL's password never reaches output (it may be in --registry or AVP_REGISTRY_URL).
  process.stdout.write(`${redactUserinfo(JSON.stringify(value, null, 2))}\n`);
}
