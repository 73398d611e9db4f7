/**
 * Runs the labelled corpus (test/fixtures/catalog/*.cases.ts) through the catalog's script validators in-process
 * (their exported `validate`) and scores them. Shared by test/catalog/corpus.test.ts (asserts the targets) and
 * bench/catalog.ts (prints precision/recall). Events are shaped like the engine's: Claude-style tool input plus
 * `files[]` whose unified diff comes from the engine's own diff code (src/file-changes/diff.ts).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { FileChange, HookEvent } from '../../src/protocol/event.ts';
import { diffTexts } from '../../src/file-changes/diff.ts';
import type { Verdict } from '../../src/judges/types.ts';
import { cases as commandCases } from '../fixtures/catalog/dangerous-commands.cases.ts';
import { cases as debugCases } from '../fixtures/catalog/no-debug-leftovers.cases.ts';
import { cases as secretCases } from '../fixtures/catalog/no-secrets.cases.ts';
import { heldOut as secretHeldOut } from '../fixtures/catalog/no-secrets.heldout.cases.ts';
import { cases as pathCases } from '../fixtures/catalog/protected-files.cases.ts';

export const CATALOG = join(import.meta.dir, '../../validators');
/** The project root the corpus events claim (nothing is read from it). */
export const PROJECT = '/work/project';

export interface LabelledEvent {
  id: string;
  expect: 'flag' | 'pass';
  rule?: string;
  /** The provider or class the case belongs to (its cases file's `category`; else its rule, or `benign`). */
  category: string;
  /** A case of a held-out set (written from published formats, not tuned on first). */
  heldOut?: boolean;
  event: HookEvent;
}

/** A case's category: the one its cases file gives, else its rule (positives) or `benign` (near misses). */
const categoryOf = (c: { category?: string; rule?: string; expect: 'flag' | 'pass' }) =>
  c.category ?? (c.expect === 'flag' ? (c.rule ?? 'other') : 'benign');

/** A PostToolUse Write (create) or Edit (update) event for one file, as the engine hands it to validators. */
export async function fileEvent(file: string, after: string, before?: string): Promise<HookEvent> {
  const path = join(PROJECT, file);
  const change: FileChange = {
    path,
    relPath: file,
    inProject: true,
    kind: before === undefined ? 'create' : 'update',
    before: before ?? null,
    after,
    diff: await diffTexts(file, before ?? null, after),
  };
  const toolInput =
    before === undefined
      ? { file_path: path, content: after }
      : { file_path: path, old_string: before, new_string: after };
  return {
    agent: 'claude',
    event: 'PostToolUse',
    tool: before === undefined ? 'Write' : 'Edit',
    toolInput,
    cwd: PROJECT,
    projectRoot: PROJECT,
    files: [change],
    raw: {},
  };
}

/** A PreToolUse Bash event. `cwd` matters for `git push -f` (the current branch is asked from git there). */
export function bashEvent(command: string, cwd = '/'): HookEvent {
  return {
    agent: 'claude',
    event: 'PreToolUse',
    tool: 'Bash',
    toolInput: { command },
    cwd,
    projectRoot: PROJECT,
    files: [],
    raw: {},
  };
}

/** A PreToolUse file-tool event as Claude Code sends it (paths absolute; `~/` expands to the home directory). */
export function preWriteEvent(path: string, tool = 'Write'): HookEvent {
  const abs = path.startsWith('~/') ? join(homedir(), path.slice(2)) : join(PROJECT, path);
  const rel = abs.startsWith(`${PROJECT}/`) ? abs.slice(PROJECT.length + 1) : abs;
  const key = tool === 'NotebookEdit' ? 'notebook_path' : 'file_path';
  return {
    agent: 'claude',
    event: 'PreToolUse',
    tool,
    toolInput: { [key]: abs },
    cwd: PROJECT,
    projectRoot: PROJECT,
    files: [{ path: abs, relPath: rel, inProject: !rel.startsWith('/'), kind: 'update' }],
    raw: {},
  };
}

type FileCase = { id: string; expect: 'flag' | 'pass'; rule?: string; category?: string } & {
  file: string;
  content: string;
  before?: string;
};

const fileCases = (cs: FileCase[]) =>
  Promise.all(
    cs.map(async (c) => ({
      id: c.id,
      expect: c.expect,
      rule: c.rule,
      category: categoryOf(c),
      event: await fileEvent(c.file, c.content, c.before),
    })),
  );

/** Each deterministic validator's labelled events, built only when asked for (a diff per file case costs). */
const BUILDERS: Record<string, () => Promise<LabelledEvent[]>> = {
  'no-secrets': async () => [
    ...(await fileCases(secretCases)),
    ...(await fileCases(secretHeldOut)).map((c) => ({ ...c, heldOut: true })),
  ],
  'no-debug-leftovers': () => fileCases(debugCases),
  'dangerous-commands': async () =>
    commandCases.map((c) => ({
      id: c.id,
      expect: c.expect,
      rule: c.rule,
      category: categoryOf(c),
      event: bashEvent(c.command),
    })),
  'protected-files': async () =>
    pathCases.map((c) => ({
      id: c.id,
      expect: c.expect,
      category: categoryOf(c),
      event: c.command ? bashEvent(c.command, PROJECT) : preWriteEvent(c.path, c.tool),
    })),
};

/** The labelled events of one deterministic validator. */
export function corpusOf(validator: string): Promise<LabelledEvent[]> {
  const build = BUILDERS[validator];
  if (!build) throw new Error(`no labelled corpus for ${validator}`);
  return build();
}

/** The labelled events of each deterministic validator. */
export async function corpus(): Promise<Record<string, LabelledEvent[]>> {
  const out: Record<string, LabelledEvent[]> = {};
  for (const name of Object.keys(BUILDERS)) out[name] = await corpusOf(name);
  return out;
}

export interface Score {
  validator: string;
  positives: number;
  negatives: number;
  truePositives: number;
  falsePositives: number;
  precision: number;
  recall: number;
  /** Positives flagged under another rule than the labelled one (still counted as found). */
  wrongRule: string[];
  missed: string[];
  falseAlarms: string[];
  /** Mean in-process `validate` time per case, microseconds. */
  meanMicros: number;
  /** Per category: positives and how many were flagged, near misses and how many were flagged. */
  categories: Record<string, CategoryScore>;
}

export interface CategoryScore {
  positives: number;
  truePositives: number;
  negatives: number;
  falsePositives: number;
}

type Validate = (event: HookEvent) => Verdict | Promise<Verdict>;

/** Loads a catalog script's exported `validate`. */
export async function loadValidate(name: string): Promise<Validate> {
  const mod = (await import(join(CATALOG, name, 'scripts/check.ts'))) as { validate: Validate };
  return mod.validate;
}

/** Scores one validator on its labelled events. */
export async function score(validator: string, events: LabelledEvent[]): Promise<Score> {
  const validate = await loadValidate(validator);
  const s: Score = {
    validator,
    positives: 0,
    negatives: 0,
    truePositives: 0,
    falsePositives: 0,
    precision: 1,
    recall: 1,
    wrongRule: [],
    missed: [],
    falseAlarms: [],
    meanMicros: 0,
    categories: {},
  };
  const started = performance.now();
  for (const c of events) {
    const verdict = await validate(c.event);
    const flagged = !verdict.passed;
    const cat = (s.categories[c.category] ??= { positives: 0, truePositives: 0, negatives: 0, falsePositives: 0 });
    if (c.expect === 'flag') {
      s.positives++;
      cat.positives++;
      if (flagged) {
        s.truePositives++;
        cat.truePositives++;
        if (c.rule && !verdict.violations.some((v) => v.rule === c.rule))
          s.wrongRule.push(`${c.id} (got ${verdict.violations.map((v) => v.rule).join(',')})`);
      } else s.missed.push(c.id);
    } else {
      s.negatives++;
      cat.negatives++;
      if (flagged) {
        s.falsePositives++;
        cat.falsePositives++;
        s.falseAlarms.push(`${c.id}: ${verdict.violations.map((v) => `${v.rule} ${v.snippet ?? ''}`).join('; ')}`);
      }
    }
  }
  s.meanMicros = ((performance.now() - started) * 1000) / Math.max(1, events.length);
  const flaggedTotal = s.truePositives + s.falsePositives;
  s.precision = flaggedTotal ? s.truePositives / flaggedTotal : 1;
  s.recall = s.positives ? s.truePositives / s.positives : 1;
  return s;
}
