/**
 * One hook event delivered twice at once. Claude Code runs a plugin's hooks and the settings' hooks side by side and
 * does not merge identical commands across the two (measured: test/e2e/claude-plugin.test.ts), so with the avp plugin
 * in a project set up by `avp init`, every event would reach avp twice and every judge would be asked twice. Codex
 * does the same with its plugin's hooks and `.codex/hooks.json` (measured: test/e2e/codex-plugin.test.ts).
 *
 * The first process to see an input claims it (a file named by the input's hash, created exclusively); a process
 * that finds the claim held by a live process answers `{}`: both agents combine parallel hooks' answers, so the
 * claimant's block or deny still stands. A claim is released when its process answers, so the same input sent again
 * later is judged again. Cost: a hash of stdin, one exclusive create and one unlink.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { avpHome } from '../paths.ts';

/** Past any hook timeout: a claim this old belongs to a process that is gone, whatever its pid now names. */
const STALE_MS = 15 * 60_000;

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the claim at `file` is held by another live process (not stale). */
function heldElsewhere(file: string): boolean {
  try {
    if (Date.now() - statSync(file).mtimeMs > STALE_MS) return false;
    return alive(Number(readFileSync(file, 'utf8')));
  } catch {
    return false;
  }
}

/**
 * Claims the hook input `raw`. Returns the release function when this process should answer, or undefined when an
 * identical input is being answered by another avp process right now. Never throws: when the claim cannot be
 * written (a read-only home), this process answers as if there were no claims.
 */
export function claimCall(raw: string, env: NodeJS.ProcessEnv = process.env): (() => void) | undefined {
  const dir = join(avpHome(env), 'cache', 'hook-calls');
  const file = join(dir, `${Bun.hash(raw).toString(36)}-${raw.length}`);
  const release = () => rmSync(file, { force: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return () => {};
      if (heldElsewhere(file)) return undefined;
      rmSync(file, { force: true }); // a claim left by a process that died: take it over
    }
  }
  // Another process took the stale claim over between our two tries: it answers.
  return undefined;
}
