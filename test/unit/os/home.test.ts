/**
 * os/home.ts answers as node:os does without loading it where HOME says: the home folder the hook path uses for
 * `~/.avp`, agents' user settings and the guard's `~` must not change with the shortcut through HOME.
 */
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';

const HOME_MODULE = resolve(import.meta.dir, '../../../src/os/home.ts');

/** `homedir()` from os/home.ts and from node:os, in a fresh process with `home` as HOME (undefined: unset). */
function bothHomes(home: string | undefined): { ours: string; nodes: string } {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  if (home !== undefined) env.HOME = home;
  const script =
    `const { homedir } = await import(${JSON.stringify(HOME_MODULE)});` +
    "console.log(JSON.stringify({ ours: homedir(), nodes: (await import('node:os')).homedir() }));";
  const p = Bun.spawnSync([process.execPath, '-e', script], { env, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(p.stderr.toString());
  return JSON.parse(p.stdout.toString());
}

describe('the home folder without node:os', () => {
  for (const home of ['/home/someone', '/home/trailing/', 'relative/home', '', undefined])
    test(`HOME ${home === undefined ? 'unset' : JSON.stringify(home)}: the folder node:os gives`, () => {
      const { ours, nodes } = bothHomes(home);
      expect(ours).toBe(nodes);
      expect(ours.length).toBeGreaterThan(0);
    });
});
