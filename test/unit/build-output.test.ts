import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/run-avp.ts';

/**
 * Bun 1.4's minifier can give its CommonJS interop helper the name of the parameter in the code it generates for a
 * dynamic import of a CommonJS package (`.then((m) => m(m.default, 1))`): every such import then throws "m is not
 * a function" in the compiled binary, depending only on how unrelated code shifts the naming. avp imports CommonJS
 * packages statically inside small lazily loaded modules (src/registry-client/semver.ts); this keeps it that way.
 */
test('the bundle has no dynamic import of a CommonJS package (the minifier can break its interop call)', async () => {
  const out = tempDir('avp-bundle-');
  const root = join(import.meta.dir, '../..');
  const r = await Bun.build({
    entrypoints: [join(root, 'src/cli.ts')],
    minify: true,
    splitting: true,
    format: 'esm',
    target: 'bun',
    outdir: out,
  });
  expect(r.success).toBe(true);
  const offenders = readdirSync(out).filter((f) =>
    /\.then\(\(([A-Za-z_$][\w$]*)\)=>[A-Za-z_$][\w$]*\(\1\.default,1\)\)/.test(readFileSync(join(out, f), 'utf8')),
  );
  expect(offenders, 'a dynamic import of a CommonJS package: import it statically in a lazily loaded module').toEqual(
    [],
  );
});
