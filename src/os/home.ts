/**
 * node:os, loaded only when it is needed: loading it costs ~0.3 ms of a hook call (bench/hook-cost.ts), and the hook
 * path asks it almost nothing — the home folder, which HOME gives. On POSIX `homedir()` is HOME when HOME is set and
 * not empty (else the password entry's folder); on Windows it is USERPROFILE's rule, so there node:os is asked.
 */
import type * as NodeOs from 'node:os';

let os: typeof NodeOs | undefined;

/** node:os itself, for its rarer questions (`userInfo()`, `tmpdir()`, `hostname()`). */
export function nodeOs(): typeof NodeOs {
  os ??= require('node:os') as typeof NodeOs;
  return os;
}

/** The same folder as node:os `homedir()`. */
export function homedir(): string {
  const home = process.env.HOME;
  return process.platform !== 'win32' && home ? home : nodeOs().homedir();
}
