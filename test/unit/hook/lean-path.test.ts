/**
 * What a no-match hook call loads, read from the bundler's own graph of the release build's chunks: each module kept
 * off it here was measured costing milliseconds of CPU on every call (bench/hook-cost.ts) — Node's stream modules
 * (behind `node:crypto`'s Hash, `node:tty`, `process.stdin`/`process.stdout`), `node:child_process` (~1 ms; spawn
 * with `Bun.spawnSync`), `node:os` (~0.3 ms; the home folder comes from os/home.ts), jsonc-parser's enum tables, the
 * shell guard (loaded for before-tool events only). A static import of one of them into the hook path fails here.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../../..');

interface Output {
  imports?: { path: string; kind: string }[];
  inputs: Record<string, unknown>;
}

/** Inputs and external modules of every chunk the hook entry loads before any lazy `import()`. */
async function hookPath(): Promise<{ inputs: Set<string>; externals: Set<string> }> {
  const outdir = mkdtempSync(join(tmpdir(), 'avp-lean-'));
  try {
    const built = await Bun.build({
      entrypoints: [join(ROOT, 'src/cli.ts')],
      splitting: true,
      format: 'esm',
      target: 'bun',
      outdir,
      metafile: true,
    });
    expect(built.success).toBe(true);
    const outputs = built.metafile!.outputs as Record<string, Output>;
    const sources = built.metafile!.inputs as Record<
      string,
      { imports: { original?: string; external?: boolean; kind?: string }[] }
    >;
    const byName = new Map(Object.entries(outputs).map(([k, v]) => [k.replace(/^.*\//, ''), v]));
    const hasInput = (o: Output, file: string) => Object.keys(o.inputs).some((i) => i.endsWith(file));
    const inputs = new Set<string>();
    const externals = new Set<string>();
    const seen = new Set<Output>();
    const visit = (o: Output) => {
      if (seen.has(o)) return;
      seen.add(o);
      for (const i of Object.keys(o.inputs)) {
        inputs.add(i.replace(/^.*node_modules\//, 'node_modules/'));
        // Built-in modules are external: the bundle's inputs say which of them each module imports (a `require()`
        // inside a function loads when called: os/home.ts's node:os).
        for (const im of sources[i]?.imports ?? [])
          if (im.external && im.original && im.kind !== 'require-call') externals.add(im.original);
      }
      for (const im of o.imports ?? [])
        if (im.kind === 'import-statement') visit(byName.get(im.path.replace(/^.*\//, ''))!);
    };
    // The hook command's chunk, then the hook path's (all reached through `import()` on every Claude Code call).
    const onEveryCall = [
      'src/commands/hook.ts',
      'src/agents/claude/index.ts',
      'src/hook/stdin.ts',
      'src/hook/duplicate-call.ts',
      'src/hook/hook.ts',
    ];
    for (const file of onEveryCall) visit([...byName.values()].find((o) => hasInput(o, file))!);
    return { inputs, externals };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

describe('the hook path stays lean', () => {
  test('no stream-backed node: module, no node:os, no jsonc-parser, no shell guard before the call needs them', async () => {
    const { inputs, externals } = await hookPath();
    // The walk is real: it reaches the accepted-state check, discovery and matching.
    for (const f of ['src/trust/hook-view.ts', 'src/validator/discover.ts', 'src/validator/match.ts'])
      expect([...inputs].some((i) => i.endsWith(f))).toBe(true);
    expect(externals.has('node:fs')).toBe(true);
    expect([...externals].filter((m) => /^(node:)?(crypto|tty|stream|readline|child_process|os)$/.test(m))).toEqual([]);
    expect([...inputs].filter((i) => i.includes('jsonc-parser'))).toEqual([]);
    expect([...inputs].filter((i) => /src\/trust\/(guard|shell-[a-z]+)\.ts$/.test(i))).toEqual([]);
    // stdin and stdout go through fs on fd 0 and 1: Bun's and Node's stream objects are never created (stderr's
    // only for AVP_DEBUG lines). Comments may name them.
    const code = (i: string) =>
      readFileSync(join(ROOT, i), 'utf8')
        .split('\n')
        .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l))
        .join('\n');
    const streams = [...inputs].filter((i) => i.startsWith('src/') && /\b(process\.stdout|Bun\.stdin)\b/.test(code(i)));
    expect(streams).toEqual([]);
  }, 60_000);
});
