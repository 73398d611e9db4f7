/**
 * The install most agents share: one hook file at the same place under the project's folder for the agent
 * (`.gemini/settings.json`) and under the user's (`~/.gemini/settings.json`). Those two folders are also what
 * `avp init` looks for to tell that the project or the user has the agent. Each adapter still names its own folders
 * and file; only the wiring is shared.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentInstall } from './types.ts';

type Folder = (env: NodeJS.ProcessEnv) => string;

/** A folder under the user's home (`$HOME`, else the OS's idea of it). */
export const underHome =
  (...parts: string[]): Folder =>
  (env) =>
    join(env.HOME || homedir(), ...parts);

/** Scopes, paths and markers of an agent whose hook file is `file` under `projectFolder` or under `userFolder`. */
export function projectAndUserFile(
  projectFolder: string,
  userFolder: Folder,
  ...file: string[]
): Pick<AgentInstall, 'scopes' | 'path' | 'markers'> {
  return {
    scopes: ['project', 'user'],
    path: (scope, root, env) =>
      scope === 'user' ? join(userFolder(env), ...file) : join(root, projectFolder, ...file),
    markers: (root, env) => ({ project: [join(root, projectFolder)], user: [userFolder(env)] }),
  };
}
