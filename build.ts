/**
 * Builds the single `avp` executable with `bun build --compile`.
 *   bun run build.ts                       → dist/avp for this machine
 *   bun run build.ts --target bun-linux-arm64 --target bun-darwin-arm64 …   → dist/avp-<target> for each
 *   bun run build.ts --all                 → every target whose runtime Bun can fetch or has cached
 *   bun run build.ts --outdir /tmp/x         → the same into another folder (tests)
 * Writes <outdir>/sha256sums.txt for whatever it built.
 *
 * The release URL `avp upgrade` uses by default is decided here and baked in (scripts/release/release-url.ts):
 * AVP_RELEASE_URL, else in GitHub Actions the repository's Releases; a local build has none.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compileOptions } from './scripts/build-options.ts';
import { releaseUrlForBuild } from './scripts/release/release-url.ts';

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
const outdir = args.flatMap((a, i) => (a === '--outdir' && args[i + 1] ? [args[i + 1]!] : []))[0] ?? 'dist';
const releaseUrl = (() => {
  try {
    return releaseUrlForBuild();
  } catch (e) {
    const fix = (e as { fix?: string }).fix;
    console.error(`build: ${(e as Error).message}${fix ? `\nfix: ${fix}` : ''}`);
    process.exit(1);
  }
})();
const targets: string[] = args.includes('--all')
  ? [...ALL_TARGETS]
  : args.flatMap((a, i) => (a === '--target' && args[i + 1] ? [args[i + 1]!] : []));

mkdirSync(outdir, { recursive: true });
const built: string[] = [];
const failed: string[] = [];

for (const target of targets.length ? targets : [undefined]) {
  const outfile = target
    ? join(outdir, `avp-${target.replace(/^bun-/, '')}${target.includes('windows') ? '.exe' : ''}`)
    : join(outdir, 'avp');
  const result = await Bun.build(
    // An empty string when there is none: src/upgrade/release.ts then asks for --release-url / AVP_RELEASE_URL.
    await compileOptions('src/cli.ts', outfile, {
      target,
      define: { AVP_BUILT_RELEASE_URL: JSON.stringify(releaseUrl.url ?? '') },
    }),
  );
  if (result.success) built.push(outfile);
  else {
    failed.push(target ?? 'host');
    for (const log of result.logs) console.error(String(log));
  }
}

const sums = built.map((f) => `${createHash('sha256').update(readFileSync(f)).digest('hex')}  ${basename(f)}`);
writeFileSync(join(outdir, 'sha256sums.txt'), sums.join('\n') + '\n');
console.error(`built ${built.join(', ') || 'nothing'}${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
console.error(`release URL: ${releaseUrl.url ? `${releaseUrl.url} (from ${releaseUrl.from})` : releaseUrl.from}`);
if (failed.length && !built.length) process.exit(1);
