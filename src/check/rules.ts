/**
 * Whose rules judge a change. A pull request (often an agent's) that sets `"disabled": true`, deletes a validator,
 * adds a `disabledValidators` entry or lowers a severity must not switch off the check that reviews it. So when
 * `avp check` compares revisions, the control files come from the base of the change (the merge base for `A...B`,
 * else `A` or `REV`) and the files being checked from its head; `--rules head` opts into the change's own rules.
 * Hook mode gets the same protection from the accepted state; a CI run has no user to accept, the base is what the
 * team merged.
 *
 * Exception: a base with no avp rules at all (the change introduces avp) is judged by the change's own rules, said
 * so, since otherwise adding avp could never be checked.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { AvpError } from '../errors.ts';
import type { LoadError } from '../validator/types.ts';
import { projectValidatorsDir } from '../paths.ts';
import { git, type RevisionRange } from './git.ts';
import { materializeRules, type RulesTree } from './rules-tree.ts';

export type RulesChoice = 'base' | 'head';
export const RULES_CHOICES: readonly RulesChoice[] = ['base', 'head'];

/** Where a check's rules came from, as every report format shows it. */
export interface RulesInfo {
  /** `base`: the base revision's; `head`: the change's own (a revision, or the working tree). */
  from: RulesChoice;
  /** The revision the rules were read from (full sha); absent when they are the working tree's. */
  revision?: string;
  /** The base revision (full sha), when the change has one. */
  base?: string;
  /** The control files this change edits (project-relative), when it has a base. */
  changed: string[];
  /** Set when `base` rules were asked for but the base has none: the change introduces avp. */
  introduced?: boolean;
  /** The warning every format shows when `changed` is not empty. */
  notice?: string;
}

/** The rules a check runs on: where to read config and validators, and how to map paths back to the project. */
export interface CheckRules {
  info: RulesInfo;
  /** The folder standing in for the project root for config files (undefined: the project root). */
  configRoot?: string;
  /** The project's validators folder to read (undefined: the project's own). */
  validatorsDir?: string;
  /** A path or text mentioning the rules folder, as the project's paths. */
  relocate(text: string): string;
  /** Removes the materialized folder (idempotent). */
  dispose(): void;
}

export interface RulesRequest {
  projectRoot: string;
  /** The change's revisions, for `--diff`. */
  range?: RevisionRange;
  staged?: boolean;
  paths?: string[];
  /** `--rules`; default `base` for `--diff`, `head` otherwise. */
  choice?: string;
  env: NodeJS.ProcessEnv;
}

const sha = (root: string, rev: string) => git(root, ['rev-parse', '--verify', '-q', `${rev}^{commit}`], true);

/** Which rules a check runs on; materializes a revision's control files when those are not the working tree's. */
export function resolveRules(req: RulesRequest): CheckRules {
  const choice = (req.choice ?? (req.range ? 'base' : 'head')) as RulesChoice;
  if (!(RULES_CHOICES as readonly string[]).includes(choice)) {
    throw new AvpError('usage', `--rules ${choice} is not base or head`, {
      fix: "use --rules base (the rules of the change's base, the default for --diff) or --rules head",
    });
  }
  const live = (info: RulesInfo): CheckRules => ({ info, relocate: (t) => t, dispose: () => {} });
  if (choice === 'head' && !req.range) return live({ from: 'head', changed: [] });
  if (req.paths?.length) {
    throw new AvpError('usage', '--rules base needs a base revision, and files given as arguments have none', {
      fix: 'use --diff REV or --staged with --rules base, or leave --rules out',
    });
  }
  const top = git(req.projectRoot, ['rev-parse', '--show-toplevel'])!.toString().trim();
  const prefix = relative(top, req.projectRoot).split(sep).join('/');
  // --staged and the working tree have HEAD as their base (none in a repository without commits yet).
  const baseRev = req.range?.from ?? 'HEAD';
  // A revision range's base must exist (git's own error names it); HEAD may not exist yet.
  const base = (
    req.range ? git(req.projectRoot, ['rev-parse', '--verify', `${baseRev}^{commit}`]) : sha(req.projectRoot, baseRev)
  )
    ?.toString()
    .trim();
  const headRev = choice === 'head' ? req.range?.to : undefined;
  const rev = choice === 'base' ? base : headRev && sha(req.projectRoot, headRev)?.toString().trim();
  if (!rev) return live({ from: 'head', changed: [], ...(base ? { base } : {}) });
  const tree = materializeRules(top, rev, prefix, req.env);
  if (choice === 'base' && !tree.files.length) {
    tree.remove();
    return live({ from: 'head', ...(base ? { base } : {}), changed: [], introduced: true });
  }
  return fromTree(tree, req.projectRoot, { from: choice, revision: rev, ...(base ? { base } : {}), changed: [] });
}

function fromTree(tree: RulesTree, projectRoot: string, info: RulesInfo): CheckRules {
  const hasValidators = tree.files.some((f) => f.startsWith('.avp/validators/'));
  // Teams that keep installed validators out of git restore them in CI (`avp install --frozen`): then the installed
  // folder is all there is, and the revision's lockfile says which validators must be in it.
  const untracked = !hasValidators && existsSync(projectValidatorsDir(projectRoot)) && !tracked(projectRoot);
  return {
    info,
    configRoot: tree.dir,
    validatorsDir: untracked ? undefined : projectValidatorsDir(tree.dir),
    relocate: (t) => t.replaceAll(tree.dir, projectRoot),
    dispose: tree.remove,
  };
}

function tracked(projectRoot: string): boolean {
  const out = git(projectRoot, ['ls-files', '-z', '--', '.avp/validators'], true);
  return !out || out.length > 0;
}

/** Validators the rules' lockfile lists that are not installed: they fail closed, like the managed policy's. */
export function missingLocked(rules: CheckRules, found: { name: string }[], errors: LoadError[]): LoadError[] {
  if (!rules.configRoot || rules.validatorsDir) return [];
  const lock = join(rules.configRoot, '.avp', 'avp-lock.json');
  let names: string[] = [];
  try {
    names = Object.keys((JSON.parse(readFileSync(lock, 'utf8')) as { packages?: object }).packages ?? {});
  } catch {
    return [];
  }
  const known = new Set([...found.map((v) => v.name), ...errors.map((e) => e.name)]);
  return names
    .filter((n) => !known.has(n))
    .map((name) => ({
      source: 'project' as const,
      path: rules.relocate(lock),
      name,
      message: `validator "${name}" is in the lockfile of the rules (${rules.info.revision?.slice(0, 7)}) but not installed`,
      fix: 'run avp install --frozen before avp check',
    }));
}

/** The notice of a change to avp's rules, or undefined when it edits none. */
export function rulesNotice(info: RulesInfo): string | undefined {
  if (!info.changed.length) return undefined;
  const shown = info.changed.slice(0, 10).join(', ');
  const list = info.changed.length > 10 ? `${shown} and ${info.changed.length - 10} more` : shown;
  const short = (info.base ?? '').slice(0, 7);
  if (info.introduced) {
    return `this change adds avp's rules: ${list} — the base (${short}) has none, so they are judged by the change's own rules`;
  }
  if (info.from === 'base') {
    return (
      `this change edits avp's rules: ${list} — judged by the base's rules (${short}); ` +
      'they take effect once merged, run with --rules head to try them'
    );
  }
  return `this change edits avp's rules: ${list} — judged by the change's own rules (--rules head)`;
}
