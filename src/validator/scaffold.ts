/**
 * `avp new`'s library: writes a validator skeleton (single file, directory or RuleSet) that passes `avp lint`, without
 * ever overwriting anything and without leaving half a validator behind.
 */
import { didYouMean } from '../did-you-mean.ts';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AvpError } from '../errors.ts';
import { loadSource } from './discover.ts';
import { lintPaths } from './lint.ts';
import { placeholderDescription } from './lint-hints.ts';
import { NAME_FIX, NAME_RE } from './schema.ts';
import {
  SEVERITIES,
  STOP_TRIGGERS,
  TOOL_TRIGGERS,
  TRIGGERS,
  type Form,
  type Severity,
  type Source,
  type Trigger,
} from './types.ts';

/** `avp new` input (trigger and severity as typed: validated here). */
export interface ScaffoldOptions {
  name: string;
  /** The validators folder to write into (a source root). */
  root: string;
  source: Source;
  form: Form;
  trigger?: string;
  severity?: string;
  /** A script validator (directory form with `scripts/check.ts`): runs with no model. */
  script?: boolean;
}

/** What `avp new` wrote. */
export interface Scaffolded {
  name: string;
  form: Form;
  source: Source;
  /** The file holding the prompt to edit. */
  path: string;
  /** Every file written. */
  files: string[];
}

function frontmatter(name: string, description: string, severity: Severity, trigger: Trigger, script = false): string {
  const lines = ['---', `name: ${name}`, `description: ${description}`, `severity: ${severity}`, `trigger: ${trigger}`];
  if (TOOL_TRIGGERS.includes(trigger)) lines.push('match:', '  tools: [Write, Edit, MultiEdit]', '  files: ["**/*"]');
  if (STOP_TRIGGERS.includes(trigger)) lines.push('match:', '  files: ["**/*"]');
  if (script) lines.push('script: scripts/check.ts');
  lines.push(`timeout: ${script ? 10 : 60}`, '---', '');
  return lines.join('\n');
}

/** A working script judge: flags added lines with a marker; the author swaps the test for their own rule. */
const CHECK_SCRIPT = `import { readFileSync } from 'node:fs';

// avp runs this on every change the validator matches: the event as JSON on stdin (files[].relPath, .after, .diff,
// …), one verdict as JSON on stdout. Replace MARKER and the test below with your rule; \`avp check <file>\` runs it.
const MARKER = /\\bDO NOT COMMIT\\b/;

const event = JSON.parse(readFileSync(0, 'utf8'));
const violations: object[] = [];
for (const file of event.files ?? []) {
  String(file.after ?? '')
    .split('\\n')
    .forEach((text: string, i: number) => {
      if (MARKER.test(text))
        violations.push({ rule: 'marker', file: file.relPath, line: i + 1, snippet: text.trim(),
          suggestion: 'remove the marked line before the change is kept' });
    });
}
console.log(JSON.stringify({ passed: !violations.length, violations, summary: \`\${violations.length} violation(s)\` }));
`;

function prompt(name: string, extra: string): string {
  return `# ${name}\n\nCheck the change described below. Say what to look for, what counts as a violation and what does not.\n\n## Rules\n\n1. Replace this line with the first thing to check.\n${extra}\n## Passing\n\nIf nothing in the change breaks a rule, pass.\n`;
}

/** The name, trigger, severity and form of `avp new`, checked before anything else is looked at. */
export function checkScaffoldOptions(o: ScaffoldOptions): { trigger: Trigger; severity: Severity } {
  if (!NAME_RE.test(o.name) || o.name.length > 64)
    throw new AvpError('new-bad-name', `\`${o.name}\` is not a valid validator name`, { fix: NAME_FIX });
  const trigger = (o.trigger ?? 'PostToolUse') as Trigger;
  if (!TRIGGERS.includes(trigger))
    throw new AvpError(
      'new-bad-trigger',
      `\`${o.trigger}\` is not an AVP trigger${didYouMean(String(o.trigger), TRIGGERS)}`,
      {
        fix: `use one of ${TRIGGERS.join(', ')}`,
      },
    );
  const severity = (o.severity ?? 'warn') as Severity;
  if (!SEVERITIES.includes(severity))
    throw new AvpError('new-bad-severity', `severity \`${o.severity}\` is not one of info, warn, error`, {
      fix: 'use --severity info, warn or error',
    });

  if (o.script && o.form !== 'directory')
    throw new AvpError('new-form', '--script writes a directory validator (VALIDATOR.md and scripts/check.ts)', {
      fix: o.form === 'ruleset' ? 'drop --rules, or drop --script' : 'drop --dir/--rules with --script',
    });
  return { trigger, severity };
}

/** Validates the inputs, writes the skeleton and lints it. Throws AvpError (nothing written) on any problem. */
export async function scaffoldValidator(o: ScaffoldOptions): Promise<Scaffolded> {
  const { trigger, severity } = checkScaffoldOptions(o);
  const target = o.form === 'file' ? join(o.root, `${o.name}.md`) : join(o.root, o.name);
  for (const p of [join(o.root, `${o.name}.md`), join(o.root, o.name)]) {
    if (existsSync(p))
      throw new AvpError('new-exists', `${p} already exists`, {
        fix: 'pick another name, or edit the existing validator',
      });
  }
  const existing = await loadSource(o.root, o.source, '', true);
  const clash = [...existing.validators.map((v) => ({ name: v.name, path: v.path })), ...existing.errors].find(
    (x) => x.name === o.name,
  );
  if (clash)
    throw new AvpError('new-exists', `a validator named \`${o.name}\` already exists at ${clash.path}`, {
      fix: 'pick another name (names are unique within a source)',
    });

  const description = placeholderDescription(o.name);
  const files: Record<string, string> = {};
  if (o.script) {
    files['VALIDATOR.md'] =
      frontmatter(o.name, description, severity, trigger, true) +
      `# ${o.name}\n\nA script validator: \`scripts/check.ts\` judges each change; no model is asked. Say here what it ` +
      'checks and why, for the people who read this validator.\n';
    files['scripts/check.ts'] = CHECK_SCRIPT;
  } else if (o.form === 'file') {
    files[`${o.name}.md`] = frontmatter(o.name, description, severity, trigger) + prompt(o.name, '');
  } else if (o.form === 'directory') {
    files['VALIDATOR.md'] =
      frontmatter(o.name, description, severity, trigger) +
      prompt(o.name, '\nDetails and examples are in `references/checklist.md`.\n');
    files['references/checklist.md'] =
      `# ${o.name} checklist\n\nExamples of violations and of acceptable code, read by the judge together with the prompt.\n`;
  } else {
    files['VALIDATOR.md'] =
      frontmatter(o.name, description, severity, trigger) +
      `# ${o.name}\n\nShared context for every rule below. Each file in rules/ is judged on its own.\n`;
    files['rules/first-rule.md'] =
      `---\nseverity: ${severity}\n---\n\n# First rule\n\nReplace this with one thing to check. If the change does not break it, pass.\n`;
  }

  // Build in a hidden staging folder inside the source (discovery skips dot-names; same file system, so the final
  // rename is atomic), lint it under its final name, then move it into place: a failure leaves nothing behind.
  const stage = join(o.root, `.avp-new-${process.pid}-${Date.now()}`);
  const staged = join(stage, o.form === 'file' ? `${o.name}.md` : o.name);
  mkdirSync(stage, { recursive: true });
  try {
    for (const [rel, text] of Object.entries(files)) {
      const file = o.form === 'file' ? staged : join(staged, rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text, { flag: 'wx' });
    }
    const errors = (await lintPaths([staged])).filter((m) => m.level === 'error');
    if (errors.length) {
      throw new AvpError(
        'new-lint',
        `the generated validator does not pass lint: ${errors.map((e) => e.message).join('; ')}`,
        { fix: 'report this as a bug in avp' },
      );
    }
    if (existsSync(target)) throw new AvpError('new-exists', `${target} already exists`, { fix: 'pick another name' });
    renameSync(staged, target);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return {
    name: o.name,
    form: o.form,
    source: o.source,
    path: o.form === 'file' ? target : join(target, 'VALIDATOR.md'),
    files: Object.keys(files).map((rel) => (o.form === 'file' ? target : join(target, rel))),
  };
}
