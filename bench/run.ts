/**
 * `npm run bench`: runs every bench/<area>.ts one after another (never in parallel: they compare timings side by
 * side and a concurrent neighbour would skew them), each printing its own titled section of numbers and ratios.
 * `npm run bench -- hook judges` runs only the named areas.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const only = process.argv.slice(2);
const dir = import.meta.dir;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.ts$/, '')))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n===== bench/${file} =====`);
  const proc = Bun.spawn([process.execPath, join(dir, file)], {
    stdout: 'inherit',
    stderr: 'inherit',
    cwd: join(dir, '..'),
  });
  const code = await proc.exited;
  if (code !== 0) {
    failed++;
    console.log(`bench/${file} exited ${code}`);
  }
}
console.log(`\n${files.length - failed} benchmarks ran, ${failed} failed`);
process.exit(failed ? 1 : 0);
