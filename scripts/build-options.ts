/**
 * The `bun build --compile` options of the `avp` executable, in one place: build.ts builds avp with them, and
 * bench/hook-cost.ts builds its floor (a program that only reads stdin, parses it and prints `{}`) with the very same
 * ones, so the ratio between the two measures avp's own work and not a difference in how Bun compiled them.
 */
export function compileOptions(
  entrypoint: string,
  outfile: string,
  opts: { target?: string; define?: Record<string, string> } = {},
): Parameters<typeof Bun.build>[0] {
  return {
    entrypoints: [entrypoint],
    minify: true,
    sourcemap: 'none',
    bytecode: true,
    // Split chunks: each command's modules (and the node: built-ins they pull in) load only when that command runs,
    // so `avp hook` does not pay for registry, server or phase code at startup (measured: ~4x the floor without it).
    splitting: true,
    format: 'esm',
    define: opts.define ?? {},
    compile: {
      outfile,
      ...(opts.target ? { target: opts.target as Bun.Build.CompileTarget } : {}),
      // A user's stray .env or bunfig.toml in their project must never change how avp behaves.
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
  } as Parameters<typeof Bun.build>[0];
}
