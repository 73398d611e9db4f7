/**
 * Loads validators from disk in the three forms: single file `name.md`, directory `name/VALIDATOR.md` (with
 * `scripts/`, `references/`, `assets/`) and RuleSet `name/VALIDATOR.md` + `rules/*.md`. A validator that cannot be
 * loaded becomes LoadError records (never dropped); style problems become warnings.
 *
 * Imports gray-matter and valibot (through frontmatter.ts / schema.ts): discovery loads this module only on a cache
 * miss.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readRegularText } from '../os/read-regular.ts';
import { isProblem, parseFrontmatter, type Frontmatter, type Problem } from './frontmatter.ts';
import { readableIdentity, validateSpec } from './schema.ts';
import { loadRules } from './load-ruleset.ts';
import { checkMentions, checkScript, hashFiles } from './load-support.ts';
import { filesUnder, walkValidators, type Unit } from './walk.ts';
import { findDuplicates } from './duplicates.ts';
import { scriptsDirHash } from './scripts-hash.ts';
import type { LintMessage, LoadError, Source, Validator } from './types.ts';

/** What loading one unit (or a folder of units) produced. `deps` = every path whose state the result depends on. */
export interface LoadResult {
  validators: Validator[];
  errors: LoadError[];
  warnings: LintMessage[];
  deps: string[];
}

/** Collects one unit's findings; `identity` scopes its load errors (name/trigger when readable). */
export class Collector {
  readonly result: LoadResult = { validators: [], errors: [], warnings: [], deps: [] };
  identity: { name?: string; trigger?: LoadError['trigger'] } = {};
  constructor(readonly source: Source) {}

  add(path: string, p: Problem): void {
    if (p.level === 'warning') {
      this.result.warnings.push({
        path,
        line: p.line,
        column: p.column,
        level: 'warning',
        message: p.message,
        ...(p.fix ? { fix: p.fix } : {}),
      });
    } else {
      this.result.errors.push({
        source: this.source,
        path,
        line: p.line,
        column: p.column,
        message: p.message,
        fix: p.fix ?? 'see `avp lint`',
        ...this.identity,
      });
    }
  }
  get failed(): boolean {
    return this.result.errors.length > 0;
  }
}

/** Reads and parses one file; a read failure or a frontmatter problem is recorded and yields undefined. */
export function readFrontmatter(path: string, c: Collector): (Frontmatter & { text: string }) | undefined {
  let text: string;
  try {
    text = readRegularText(path);
  } catch (e) {
    c.add(path, {
      line: 1,
      column: 1,
      level: 'error',
      message: `cannot read the file: ${(e as Error).message}`,
      fix: 'check the file exists and is readable',
    });
    return undefined;
  }
  const fm = parseFrontmatter(text);
  if (isProblem(fm)) {
    c.add(path, fm);
    return undefined;
  }
  return { ...fm, text };
}

/** The folders of a directory validator: a `.md` in one of them is a file a prompt names, not a validator. */
const PART_FOLDERS = ['references', 'assets', 'scripts', 'rules'];

/**
 * A `.md` without frontmatter is a broken validator — a load error, evaluated as such (fail closed): an agent that
 * empties a validator's frontmatter must not switch it off. Only a reference put in a `references/` (or `assets/`,
 * `scripts/`, `rules/`) folder of its own, with no validator key, is set aside with a warning that says where it
 * belongs; `README*.md` files are never read as validators (see walk.ts).
 */
function notAValidator(path: string, c: Collector): LoadResult | undefined {
  const [e] = c.result.errors;
  if (c.result.errors.length !== 1 || !e?.message.startsWith('no YAML frontmatter')) return undefined;
  if (!PART_FOLDERS.includes(basename(dirname(path)))) {
    e.fix =
      'a validator starts with a `---` frontmatter block (name, description, severity, trigger); notes about the ' +
      'validators go in a README.md (README*.md is never a validator), references in <name>/references/';
    return undefined;
  }
  let head = '';
  try {
    head = readRegularText(path).split(/\r?\n/).slice(0, 30).join('\n');
  } catch {
    return undefined;
  }
  if (/^\s*(?:name|description|severity|trigger|match|script)\s*:/m.test(head)) return undefined;
  return {
    validators: [],
    errors: [],
    warnings: [
      {
        path,
        line: 1,
        column: 1,
        level: 'warning',
        message: 'not a validator (no frontmatter): ignored',
        fix: `a file a prompt names lives in its validator's own folder: make the validator a directory (<name>/VALIDATOR.md) and move this file to <name>/${basename(dirname(path))}/${basename(path)}`,
      },
    ],
    deps: c.result.deps,
  };
}

/** A single-file validator `name.md`. */
export function loadFile(path: string, source: Source): LoadResult {
  const c = new Collector(source);
  c.result.deps.push(path);
  const fm = readFrontmatter(path, c);
  if (!fm) return notAValidator(path, c) ?? c.result;
  c.identity = readableIdentity(fm.data);
  const { spec, problems } = validateSpec(fm);
  for (const p of problems) c.add(path, p);
  const stem = basename(path, '.md');
  if (spec && spec.name !== stem) {
    c.add(path, {
      ...fm.locate(['name']),
      level: 'warning',
      message: `name \`${spec.name}\` differs from the file name ${basename(path)}`,
      fix: `rename the file to ${spec.name}.md so the validator is found where its name says`,
    });
  }
  if (spec?.script !== undefined) {
    c.add(path, {
      ...fm.locate(['script']),
      level: 'error',
      message: '`script` needs a directory validator (the script lives in its scripts/ folder)',
      fix: `move the file to ${join(dirname(path), stem, 'VALIDATOR.md')} and the script to ${join(dirname(path), stem, 'scripts/')}`,
    });
  }
  const linked = checkMentions(path, fm.body, fm.bodyLine, dirname(path), c);
  if (!spec || c.failed) return c.result;
  const references = [...new Set(linked)].sort();
  c.result.validators.push({
    id: spec.name,
    name: spec.name,
    source,
    form: 'file',
    path,
    spec,
    body: fm.body.trim(),
    references,
    hash: hashFiles(dirname(path), [path, ...references]),
  });
  return c.result;
}

/** A directory validator `name/VALIDATOR.md`, or a RuleSet when it has a `rules/` folder. */
export function loadDir(dir: string, source: Source): LoadResult {
  const c = new Collector(source);
  const path = join(dir, 'VALIDATOR.md');
  const files = filesUnder(dir);
  c.result.deps.push(...files);
  const fm = readFrontmatter(path, c);
  // A directory validator's VALIDATOR.md without frontmatter is always a broken validator.
  if (!fm) return c.result;
  const isRuleSet = existsSync(join(dir, 'rules')) && statSync(join(dir, 'rules')).isDirectory();
  // A RuleSet without `trigger` runs on PostToolUse (the reference's default): its load errors concern that event.
  c.identity = readableIdentity(
    isRuleSet && fm.data.trigger === undefined ? { ...fm.data, trigger: 'PostToolUse' } : fm.data,
  );
  const { spec, problems } = validateSpec(fm, { ruleset: isRuleSet });
  for (const p of problems) c.add(path, p);
  if (spec && spec.name !== basename(dir)) {
    c.add(path, {
      ...fm.locate(['name']),
      level: 'error',
      message: `name \`${spec.name}\` does not match its directory ${basename(dir)}/`,
      fix: `rename the directory to ${spec.name}/ or set \`name: ${basename(dir)}\``,
    });
  }
  if (spec?.script !== undefined) checkScript(dir, spec.script, fm.locate(['script']), path, c);
  const linked = checkMentions(path, fm.body, fm.bodyLine, dir, c);
  const referenceFiles = files.filter((f) => f.startsWith(join(dir, 'references') + '/'));
  const references = [...new Set([...referenceFiles, ...linked])].sort();
  if (isRuleSet) {
    loadRules({ dir, path, fm, spec, references, files, c });
    return c.result;
  }
  if (!spec || c.failed) return c.result;
  c.result.validators.push({
    id: spec.name,
    name: spec.name,
    source,
    form: 'directory',
    path,
    dir,
    spec,
    body: fm.body.trim(),
    references,
    hash: hashFiles(dir, hashInputs(dir, path, references, files)),
    ...scriptsKey(dir, spec.script),
  });
  return c.result;
}

/** A script validator's `scripts/` hash (`Validator.scripts`), taken once here and cached with the load result. */
function scriptsKey(dir: string, script: string | undefined): { scripts?: string } {
  const hash = script === undefined ? undefined : scriptsDirHash(join(dir, 'scripts'));
  return hash ? { scripts: hash } : {};
}

/** What the judge sees: the prompt file(s), the references and everything under scripts/. */
export function hashInputs(dir: string, prompt: string[] | string, references: string[], files: string[]): string[] {
  const scripts = files.filter((f) => f.startsWith(join(dir, 'scripts') + '/'));
  return [...(Array.isArray(prompt) ? prompt : [prompt]), ...references, ...scripts];
}

/** Loads one unit found by the walk. */
export function loadUnit(unit: Unit, source: Source): LoadResult {
  try {
    if (unit.kind === 'file') return loadFile(unit.path, source);
    if (unit.kind === 'dir') return loadDir(unit.dir, source);
  } catch (e) {
    // An unreadable folder or a file vanishing mid-read: still a record, never an exception out of discovery.
    const path = unit.kind === 'file' ? unit.path : unit.kind === 'dir' ? join(unit.dir, 'VALIDATOR.md') : unit.path;
    return {
      validators: [],
      errors: [
        {
          source,
          path,
          line: 1,
          column: 1,
          message: `cannot load: ${(e as Error).message}`,
          fix: 'check the files are readable, then run `avp lint`',
        },
      ],
      warnings: [],
      deps: [],
    };
  }
  return {
    validators: [],
    errors: [{ source, path: unit.path, line: 1, column: 1, message: unit.message, fix: unit.fix }],
    warnings: [],
    deps: [],
  };
}

/**
 * Loads what is at `path`: a `name.md`, a `VALIDATOR.md` or a directory holding one, a rule file of a RuleSet (its
 * RuleSet is loaded), or a folder of validators (walked at any depth; the same name twice is an error for both).
 */
export function loadValidatorsAt(path: string, source: Source): LoadResult {
  let st;
  try {
    st = statSync(path);
  } catch {
    return {
      validators: [],
      errors: [{ source, path, line: 1, column: 1, message: 'no such file or directory', fix: 'check the path' }],
      warnings: [],
      deps: [],
    };
  }
  if (st.isFile()) {
    if (basename(path) === 'VALIDATOR.md') return loadDir(dirname(path), source);
    if (basename(dirname(path)) === 'rules' && existsSync(join(dirname(dirname(path)), 'VALIDATOR.md')))
      return loadDir(dirname(dirname(path)), source);
    return loadFile(path, source);
  }
  if (existsSync(join(path, 'VALIDATOR.md'))) return loadDir(path, source);
  const all: LoadResult = { validators: [], errors: [], warnings: [], deps: [] };
  for (const unit of walkValidators(path)) {
    const r = loadUnit(unit, source);
    all.validators.push(...r.validators);
    all.errors.push(...r.errors);
    all.warnings.push(...r.warnings);
    all.deps.push(...r.deps);
  }
  const dup = findDuplicates(all.validators, all.errors, source);
  return { ...all, validators: dup.validators, errors: dup.errors };
}
