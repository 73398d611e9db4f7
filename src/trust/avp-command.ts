/**
 * Recognising avp's own hook command in an agent's settings, apart from the settings code: the trust check reads it on
 * the hook path, where the settings editor is not needed.
 */

/**
 * True for a hook command avp wrote: a program named `avp` (or avp's `cli.ts` run from source) followed by
 * `hook`. A user's own hook that merely mentions avp elsewhere is not matched.
 */
export function isAvpHookCommand(command: unknown): boolean {
  if (typeof command !== 'string') return false;
  return /(?:^|[\s/\\'"])(?:avp(?:-[\w.-]+)?(?:\.exe)?|cli\.ts)['"]?\s+hook(?:\s|$)/.test(command);
}
