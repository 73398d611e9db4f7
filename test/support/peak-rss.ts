/**
 * Runs a command and writes its peak memory (maxRSS, bytes) to the file named by PEAK_RSS_OUT; stdio is passed through
 * and the exit code is forwarded.
 *
 * Why a separate process: Bun spawns with vfork, and Linux carries the parent's high-water RSS into a vforked child at
 * exec, so a child spawned straight from a test runner that has grown to 700 MB reports at least 700 MB. Spawned from
 * this small, fresh process, the number is the command's own (plus this process's few tens of MB).
 */
import { writeFileSync } from 'node:fs';

const out = process.env.PEAK_RSS_OUT;
const argv = process.argv.slice(2);
if (!out || argv.length === 0) {
  console.error('usage: PEAK_RSS_OUT=file bun peak-rss.ts command [args…]');
  process.exit(2);
}
const env = { ...process.env };
delete env.PEAK_RSS_OUT;
const child = Bun.spawn(argv, { env, stdio: ['inherit', 'inherit', 'inherit'] });
// The caller's deadline reaches the command too: no process is left behind.
process.on('SIGTERM', () => child.kill('SIGKILL'));
const code = await child.exited;
writeFileSync(out, String(child.resourceUsage()?.maxRSS ?? 0));
process.exit(code);
