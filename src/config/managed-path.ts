/**
 * Where the machine's managed config lives, on strings alone (no node: built-in): the hook shortcut, which never
 * answers under a managed policy, looks there before anything else is loaded; config/managed.ts reads the file.
 * The documented machine-wide location of the managed config for `platform`.
 */
export function systemManagedConfigPath(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (platform === 'win32') return `${env.ProgramData || env.PROGRAMDATA || 'C:\\ProgramData'}\\avp\\managed.json`;
  if (platform === 'darwin') return '/Library/Application Support/avp/managed.json';
  return '/etc/avp/managed.json';
}
