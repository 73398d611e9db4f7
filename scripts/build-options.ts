/**
 * The `bun build --compile` options of the `avp` executable, in one place: build.ts builds avp with them, and
 * bench/hook-cost.ts builds its floor (a program that only reads stdin, parses it and prints `{}`) with the very same
 * ones, so the ratio between the two measures avp's own work and not a difference in how Bun compiled them.
 */
import { resolve } from 'node:path';

/** How many times more reluctant than normal the executable starts JavaScriptCore's JIT (see `compile` below). */
export const STARTUP_JIT_POLICY = 20;

export async function compileOptions(
  entrypoint: string,
  outfile: string,
  opts: { target?: string; define?: Record<string, string> } = {},
): Promise<Parameters<typeof Bun.build>[0]> {
  const shortcut = await shortcutModule();
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
    plugins: [shortcutAsOneModule(shortcut)],
    compile: {
      outfile,
      ...(opts.target ? { target: opts.target as Bun.Build.CompileTarget } : {}),
      // A user's stray .env or bunfig.toml in their project must never change how avp behaves.
      autoloadDotenv: false,
      autoloadBunfig: false,
      // A hook call is a burst of run-once code: at the normal tier-up thresholds JavaScriptCore compiles functions
      // it will never run again (measured: ~2 ms of a 15 ms no-match Bash call, bench/hook-cost.ts; the gain levels
      // off from a scale of ~20). Commands other than the hook put the normal policy back (src/os/jit.ts).
      jitPolicy: STARTUP_JIT_POLICY,
    },
  } as Parameters<typeof Bun.build>[0];
}

/**
 * The hook shortcut (src/hook/shortcut/answer.ts) compiled as one module, its small imports inlined: split chunks
 * would make a call the shortcut answers load ten chunks where two do, and each costs ~30 µs of CPU at startup
 * (bench/hook-cost.ts). It imports nothing lazily (it counts a call without node:fs, stats/call-line.ts).
 * The inlined copies are the same source: the shortcut's AvpError is another class than the rest's, which is why
 * the full path rebuilds an input error it hands over (commands/hook.ts).
 */
const SHORTCUT = resolve(import.meta.dir, '../src/hook/shortcut/answer.ts');

/** The shortcut's one module, built before the build that embeds it (a build inside a build's plugin hangs). */
export async function shortcutModule(): Promise<string> {
  const inner = await Bun.build({
    entrypoints: [SHORTCUT],
    target: 'bun',
    format: 'esm',
  });
  if (!inner.success) throw new Error(`the hook shortcut did not build: ${inner.logs.join('\n')}`);
  return inner.outputs[0]!.text();
}

function shortcutAsOneModule(contents: string): Bun.BunPlugin {
  return {
    name: 'hook-shortcut-as-one-module',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]hook[\\/]shortcut[\\/]answer\.ts$/ }, (args) =>
        args.path === SHORTCUT ? { contents, loader: 'js' } : undefined,
      );
    },
  };
}
