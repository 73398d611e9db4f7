/**
 * `avp lint`'s warnings about validators that load but can never fire, always fire, or check nothing: a tool name in
 * the wrong case (`write` never matches `Write`), an empty prompt, the placeholders `avp new` leaves, frontmatter
 * indented with tabs (YAML then reads `tools:` as a top-level key, and `match` as empty: every tool). Lint-only: the
 * hook path never loads this file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrontmatter, isProblem } from './frontmatter.ts';
import type { LintMessage, Validator } from './types.ts';

/** The description `avp new` writes, to be replaced by the author. */
export function placeholderDescription(name: string): string {
  return `Checks that … (describe in one sentence what ${name} checks)`;
}

/** The first rule line `avp new` writes (file and directory forms) and the first rule of a RuleSet. */
export const PLACEHOLDER_RULES = [
  'Replace this line with the first thing to check.',
  'Replace this with one thing to check.',
];

/** Claude Code's tool names (case matters: `match.tools` patterns are anchored, case-sensitive regexes). */
const TOOLS = [
  'Agent',
  'AskUserQuestion',
  'Bash',
  'BashOutput',
  'Edit',
  'ExitPlanMode',
  'Glob',
  'Grep',
  'KillShell',
  'LS',
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'Read',
  'SlashCommand',
  'Skill',
  'Task',
  'TodoWrite',
  'WebFetch',
  'WebSearch',
  'Write',
];

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether the `match.tools` entry matches this tool name exactly (an invalid regex matches nothing). */
function wholeMatch(pattern: string, tool: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(tool);
  } catch {
    return false;
  }
}

/** The lint-only warnings for one loaded validator (a rule of a RuleSet: its own prompt, the RuleSet's keys). */
export function hintWarnings(v: Validator): LintMessage[] {
  const out: LintMessage[] = [];
  const keysFile = v.dir ? join(v.dir, 'VALIDATOR.md') : v.path;
  const text = read(keysFile);
  const fm = text === undefined ? undefined : parseFrontmatter(text);
  if (!fm || isProblem(fm)) return out;
  const at = (path: Array<string | number>) => fm.locate(path);
  (v.spec.match.tools ?? []).forEach((pattern, i) => {
    // An entry that matches no tool at all is already warned about where it loads (the format's own check): one
    // message per mistake. Here: a wrong-case alternative inside an entry that otherwise matches (`Write|bash`).
    if (!TOOLS.some((t) => wholeMatch(pattern, t))) return;
    for (const alt of pattern.split('|')) {
      if (!/^[A-Za-z_]+$/.test(alt) || TOOLS.includes(alt)) continue;
      const right = TOOLS.find((t) => t.toLowerCase() === alt.toLowerCase());
      if (!right) continue;
      out.push({
        path: keysFile,
        ...at(['match', 'tools', i]),
        level: 'warning',
        message: `\`${alt}\` never matches: tool names are case-sensitive (Claude Code calls it \`${right}\`)`,
        fix: `write \`${right}\``,
      });
    }
  });
  if (v.spec.description.trim() === placeholderDescription(v.name.split('/')[0]!)) {
    out.push({
      path: keysFile,
      ...at(['description']),
      level: 'warning',
      message: 'the description is still the placeholder `avp new` wrote (reports and `avp list` show it)',
      fix: 'say in one sentence what this validator checks',
    });
  }
  if (!v.spec.script) {
    const own = v.path === keysFile ? fm : parseFrontmatter(read(v.path) ?? '');
    const body = !isProblem(own) && v.path !== keysFile ? own.body : fm.body;
    const bodyLine = !isProblem(own) && v.path !== keysFile ? own.bodyLine : fm.bodyLine;
    if (v.body.trim() === '') {
      out.push({
        path: v.path,
        line: bodyLine,
        column: 1,
        level: 'warning',
        message: 'the prompt is empty: an LLM judge has nothing to check the change against',
        fix: 'write below the closing `---` what to look for and what counts as a violation',
      });
    }
    body.split(/\r?\n/).forEach((line, i) => {
      const col = Math.max(...PLACEHOLDER_RULES.map((p) => line.indexOf(p)));
      if (col < 0) return;
      out.push({
        path: v.path,
        line: bodyLine + i,
        column: col + 1,
        level: 'warning',
        message: 'placeholder rule left from `avp new`: the judge is asked to check nothing here',
        fix: 'replace it with the first thing to check',
      });
    });
  }
  return out;
}
