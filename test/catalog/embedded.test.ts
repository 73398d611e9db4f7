/**
 * The embedded catalog: the generated module matches validators/ byte for byte, the index matches each
 * VALIDATOR.md, every validator loads without lint errors through the real loader, and LLM prompts carry their
 * references.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import matter from 'gray-matter';
import { listCatalog, readCatalogValidator } from '../../src/catalog/index.ts';
import { lintPaths } from '../../src/validator/lint.ts';
import { loadValidatorsAt } from '../../src/validator/load.ts';
import { buildPrompt } from '../../src/judges/prompt.ts';
import {
  BUILTIN_PATH,
  MODULE_PATH,
  renderBuiltinScriptsModule,
  renderCatalogModule,
} from '../../scripts/gen-catalog.ts';
import { CATALOG, fileEvent } from './corpus.ts';

const names = readdirSync(CATALOG)
  .filter((n) => statSync(join(CATALOG, n)).isDirectory())
  .sort();
const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));

test('the committed embedded module is regenerated from validators/ unchanged (run bun scripts/gen-catalog.ts)', () => {
  expect(readFileSync(MODULE_PATH, 'utf8')).toBe(renderCatalogModule());
  expect(readFileSync(BUILTIN_PATH, 'utf8')).toBe(renderBuiltinScriptsModule());
});

test('listCatalog lists every validator with its frontmatter', async () => {
  const list = await listCatalog();
  expect(list.map((e) => e.name)).toEqual(names);
  for (const e of list) {
    const { data } = matter(readFileSync(join(CATALOG, e.name, 'VALIDATOR.md'), 'utf8'));
    expect(e).toEqual({
      name: data.name,
      description: data.description,
      severity: data.severity,
      trigger: data.trigger,
      judge: data.script ? 'script' : 'llm',
      recommended: data.metadata.recommended === true,
      version: data.metadata.version,
    });
  }
  // avp init installs the deterministic ones; the LLM ones are opt-in.
  expect(list.filter((e) => e.recommended).map((e) => e.name)).toEqual([
    'dangerous-commands',
    'no-debug-leftovers',
    'no-secrets',
    'no-secrets-before',
    'protected-files',
  ]);
  expect(list.filter((e) => e.recommended).every((e) => e.judge === 'script')).toBe(true);
});

test('readCatalogValidator returns every file of a validator but its tests/ with its exact bytes', async () => {
  for (const name of names) {
    const v = await readCatalogValidator(name);
    expect(v?.name).toBe(name);
    const onDisk = walk(join(CATALOG, name))
      .map((p) => relative(join(CATALOG, name), p))
      .filter((p) => !p.startsWith('tests/'))
      .sort();
    expect(v!.files.map((f) => f.path).sort()).toEqual(onDisk);
    for (const f of v!.files) expect(Buffer.from(f.data).equals(readFileSync(join(CATALOG, name, f.path)))).toBe(true);
  }
  expect(await readCatalogValidator('no-such-validator')).toBeUndefined();
  expect(await readCatalogValidator('constructor')).toBeUndefined();
});

test('every catalog validator lints clean with the real loader (no errors, no warnings)', async () => {
  // The LLM validators carry no cases yet (they need a judge to run): that one note is expected of them only.
  const messages = (await lintPaths(names.map((n) => join(CATALOG, n)))).filter(
    (m) => !(m.message.startsWith('no test cases') && !existsSync(join(m.path, '..', 'scripts'))),
  );
  expect(messages.map((m) => `${relative(CATALOG, m.path)}:${m.line} ${m.level} ${m.message}`)).toEqual([]);
});

describe.each(names)('%s', (name) => {
  test('complete frontmatter: tags, license, metadata.version as a string, tight match', async () => {
    const { validators, errors } = await loadValidatorsAt(join(CATALOG, name), 'project');
    expect(errors).toEqual([]);
    const spec = validators[0]!.spec;
    expect(spec.tags.length).toBeGreaterThan(0);
    expect(spec.license).toBe('MIT');
    expect(typeof spec.metadata?.version).toBe('string');
    expect(spec.description.length).toBeLessThanOrEqual(1024);
    if (spec.trigger === 'PostToolUse' || spec.trigger === 'PreToolUse')
      expect(spec.match.tools?.length).toBeGreaterThan(0);
    if (spec.trigger === 'Stop') expect(spec.match.files?.length).toBeGreaterThan(0); // no firing on chat-only turns
    // The prompt stays short: token use is paid on every LLM call.
    expect(validators[0]!.body.length).toBeLessThan(3000);
  });
});

describe.each(names.filter((n) => !readFileSync(join(CATALOG, n, 'VALIDATOR.md'), 'utf8').includes('\nscript:')))(
  'LLM validator %s',
  (name) => {
    test('its prompt holds the body and every reference file, with rule ids and what not to flag', async () => {
      const { validators } = await loadValidatorsAt(join(CATALOG, name), 'project');
      const v = validators[0]!;
      expect(v.references.length).toBeGreaterThan(0);
      const prompt = buildPrompt(
        v,
        await fileEvent(
          'src/api/users.ts',
          'export const q = (id: string) => db.query(`SELECT * FROM users WHERE id = ${id}`);\n',
        ),
      );
      expect(prompt.user).toContain(v.body.trim().split('\n')[0]!);
      for (const ref of v.references) {
        const firstLine = readFileSync(ref, 'utf8').trim().split('\n')[0]!;
        expect(prompt.user).toContain(firstLine);
      }
      expect(v.body).toMatch(/## Do not flag/);
      // Rule ids the verdict can name: in the body, or (for the api-standards template) in its conventions table.
      expect([v.body, ...v.references.map((r) => readFileSync(r, 'utf8'))].join('\n')).toMatch(/`[a-z]+(?:-[a-z]+)+`/);
    });
  },
);

test('the hook path never reaches the catalog module (static or dynamic imports from src/commands/hook.ts), only the built-in scripts', () => {
  const src = join(import.meta.dir, '../../src');
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import\s*\()\s*['"](\.{1,2}\/[^'"]+\.ts)['"]/g))
      visit(join(file, '..', m[1]!));
  };
  visit(join(src, 'commands/hook.ts'));
  expect(seen.size).toBeGreaterThan(3);
  // The compiled-in catalog scripts (src/judges/builtin-script.ts) are reached lazily, and only they.
  expect([...seen].filter((f) => f.includes(`${join(src, 'catalog')}`)).map((f) => relative(src, f))).toEqual([
    'catalog/builtin-scripts.generated.ts',
  ]);
});

test('catalog scripts import only their own relative files and node: modules (what their scripts/ hash stands for)', () => {
  // The built-in path trusts the `scripts/` hash cached when a validator is loaded, which files the listing skips
  // (dotfiles, node_modules) do not void (src/validator/scripts-hash.ts): none of them may change what a script does.
  const specifiers: string[] = [];
  for (const name of readdirSync(CATALOG)) {
    const scripts = join(CATALOG, name, 'scripts');
    if (!existsSync(scripts)) continue;
    for (const file of readdirSync(scripts, { recursive: true }).map(String)) {
      if (!/\.[cm]?[jt]s$/.test(file)) continue;
      // The transpiler's scan refuses a shebang line (the script's own first line when run as a process).
      const text = readFileSync(join(scripts, file), 'utf8').replace(/^#!.*/, '');
      const scan = new Bun.Transpiler({ loader: file.endsWith('.ts') ? 'ts' : 'js' }).scanImports(text);
      specifiers.push(...scan.map((i) => i.path));
      // A require() or a computed import() is no import the scan can vouch for.
      expect(text).not.toMatch(/\brequire\s*\(|\bimport\s*\(\s*[^'"\s]/);
    }
  }
  expect(specifiers.length).toBeGreaterThan(10);
  expect(specifiers.filter((s) => !s.startsWith('./') && !s.startsWith('../') && !s.startsWith('node:'))).toEqual([]);
});
