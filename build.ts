/**
 * Builds the single `avp` executable with `bun build --compile`.
 *   bun run build.ts                       → dist/avp for this machine
 *   bun run build.ts --target bun-linux-arm64 --target bun-darwin-arm64 …   → dist/avp-<target> for each
 *   bun run build.ts --all                 → every target whose runtime Bun can fetch or has cached
 * Writes dist/sha256sums.txt for whatever it built.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

await import('./scripts/gen-catalog.ts').then((m) => m.writeCatalogModule()); // embed validators/ (the catalog)

const ALL_TARGETS = [
  'bun-linux-x64',
  'bun-linux-x64-baseline',
  'bun-linux-arm64',
  'bun-darwin-x64',
  'bun-darwin-arm64',
  'bun-windows-x64',
  'bun-windows-x64-baseline',
] as const;

const args = process.argv.slice(2);
const targets: string[] = args.includes('--all')
  ? [...ALL_TARGETS]
  : args.flatMap((a, i) => (a === '--target' && args[i + 1] ? [args[i + 1]!] : []));

mkdirSync('dist', { recursive: true });
const built: string[] = [];
const failed: string[] = [];

for (const target of targets.length ? targets : [undefined]) {
  const outfile = target
    ? join('dist', `avp-${target.replace(/^bun-/, '')}${target.includes('windows') ? '.exe' : ''}`)
    : join('dist', 'avp');
  const result = await Bun.build({
    entrypoints: ['src/cli.ts'],
    minify: true,
    sourcemap: 'none',
    bytecode: true,
    // Split chunks: each command's modules (and the node: built-ins they pull in) load only when that command runs,
    // so `avp hook` does not pay for registry, server or phase code at startup (measured: ~4x the floor without it).
    splitting: true,
    format: 'esm',
    compile: {
      outfile,
      ...(target ? { target: target as Bun.Build.CompileTarget } : {}),
      // A user's stray .env or bunfig.toml in their project must never change how avp behaves.
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
  } as Parameters<typeof Bun.build>[0]);
  if (result.success) built.push(outfile);
  else {
    failed.push(target ?? 'host');
    for (const log of result.logs) console.error(String(log));
  }
}

const sums = built.map((f) => `${createHash('sha256').update(readFileSync(f)).digest('hex')}  ${basename(f)}`);
writeFileSync(join('dist', 'sha256sums.txt'), sums.join('\n') + '\n');
console.error(`built ${built.join(', ') || 'nothing'}${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
if (failed.length && !built.length) process.exit(1);
