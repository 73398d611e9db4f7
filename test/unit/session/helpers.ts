import { mkdtempSync, rmSync } from 'node:fs';
import { hookEvent } from '../../support/events.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../../src/config/config.ts';
import type { AvpConfig } from '../../../src/config/types.ts';
import type { HookEvent } from '../../../src/protocol/event.ts';

const made: string[] = [];

/** A throwaway project directory, removed when the test process exits. */
export function tempProject(prefix = 'avp-session-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
process.on('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Session state lives under `$AVP_HOME`: a throwaway one for this test process, never the user's. */
export const TEST_AVP_HOME = tempProject('avp-session-home-');
process.env.AVP_HOME = TEST_AVP_HOME;

export function config(over: Partial<AvpConfig> = {}): AvpConfig {
  return { ...defaultConfig(), ...over };
}

/** A normalized event for `root`, session `s1` unless given. */
export function ev(root: string, event: string, extra: Partial<HookEvent> = {}): HookEvent {
  return hookEvent(root, event, { sessionId: 's1', ...extra });
}

/** Runs a shell command in `cwd`, failing loudly. */
export function sh(cwd: string, command: string): void {
  const p = Bun.spawnSync(['bash', '-c', command], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${command}: ${p.stderr.toString()}`);
}

export function gitRepo(root: string): void {
  sh(
    root,
    'git init -q && git config user.email t@example.com && git config user.name t && git config commit.gpgsign false',
  );
}
