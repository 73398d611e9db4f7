/**
 * How the reference implementation's validator format maps onto AVP 1.0 (docs/format.md, "The reference's RuleSet
 * format"). What is unambiguous is accepted, with a warning that says what avp chose; the rest is refused with the
 * difference and the fix. Runs before the schema, on a parse-cache miss only.
 */
import type { Frontmatter, Problem } from './frontmatter.ts';

/**
 * The reference's named file groups (`match.files: ["@file_groups/source_code"]`), as its built-in definitions list
 * them. A group expands to its globs; avp matches a slash-free glob against the file name, which is what the
 * reference's unanchored globs do for these patterns.
 */
export const FILE_GROUPS: Record<string, string[]> = {
  source_code: [
    ...['*.js', '*.jsx', '*.ts', '*.tsx', '*.mjs', '*.cjs', '*.py', '*.pyw', '*.rs', '*.go'],
    ...['*.c', '*.h', '*.cpp', '*.hpp', '*.cc', '*.cxx', '*.java', '*.kt', '*.kts', '*.scala'],
    ...['*.cs', '*.vb', '*.fs', '*.swift', '*.m', '*.mm', '*.rb', '*.php', '*.pl', '*.pm'],
    ...['*.r', '*.R', '*.dart', '*.lua', '*.sh', '*.bash', '*.zsh'],
  ],
  test_files: [
    ...['*.test.ts', '*.test.js', '*.test.tsx', '*.test.jsx', '*.spec.ts', '*.spec.js', '*.spec.tsx', '*.spec.jsx'],
    ...['*_test.go', '*_test.py', 'test_*.py', '*_test.rs', '*Test.java', '*Tests.java', '*Spec.scala'],
    ...['*Test.scala', '*_spec.rb', '*_test.rb', '*Test.php', '*Tests.cs', '*Test.cs', '*Test.kt', '*Tests.kt'],
  ],
};

/** What the reference assumes when a RuleSet's VALIDATOR.md leaves these out (its RuleSet manifest defaults). */
export const RULESET_DEFAULTS = { severity: 'warn', trigger: 'PostToolUse' } as const;

/** Claude Code's built-in tool names, to spot a `match.tools` pattern written for case-insensitive matching. */
const KNOWN_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'Read', 'Grep', 'Glob', 'WebFetch', 'Task'];

type Fm = Pick<Frontmatter, 'data' | 'locate'>;

/**
 * The frontmatter data with the reference's forms mapped: `@file_groups/NAME` entries expanded (an unknown group is
 * an error), and for a RuleSet's VALIDATOR.md a missing `severity` / `trigger` filled with the reference's defaults
 * (a warning each, so the author can say it explicitly).
 */
export function mapReferenceDialect(fm: Fm, problems: Problem[], opts: { ruleset?: boolean }): Record<string, unknown> {
  const data: Record<string, unknown> = { ...fm.data };
  if (opts.ruleset) {
    for (const key of ['severity', 'trigger'] as const) {
      if (data[key] !== undefined) continue;
      data[key] = RULESET_DEFAULTS[key];
      problems.push({
        line: 1,
        column: 1,
        level: 'warning',
        message:
          key === 'severity'
            ? `the RuleSet sets no \`severity\`: its rules that set none run as \`warn\` (the reference's default)`
            : `the RuleSet sets no \`trigger\`: its rules run on PostToolUse (the reference's default)`,
        fix: `write \`${key}: ${RULESET_DEFAULTS[key]}\` (or another value) in VALIDATOR.md to say so`,
      });
    }
  }
  const match = data.match;
  if (match && typeof match === 'object' && !Array.isArray(match)) {
    const m = { ...(match as Record<string, unknown>) };
    if (m.files !== undefined) m.files = expandGroups(m.files, fm, problems);
    warnCaseOnlyTools(m.tools, fm, problems);
    data.match = m;
  }
  return data;
}

function expandGroups(files: unknown, fm: Fm, problems: Problem[]): unknown {
  const list = typeof files === 'string' ? [files] : files;
  if (!Array.isArray(list) || !list.some((f) => typeof f === 'string' && f.startsWith('@'))) return files;
  const out: unknown[] = [];
  list.forEach((entry, i) => {
    const group = typeof entry === 'string' ? /^@file_groups\/([a-z_]+)$/.exec(entry) : null;
    if (typeof entry !== 'string' || !entry.startsWith('@')) out.push(entry);
    else if (group && FILE_GROUPS[group[1]!]) out.push(...FILE_GROUPS[group[1]!]!);
    else {
      problems.push({
        ...fm.locate(typeof files === 'string' ? ['match', 'files'] : ['match', 'files', i]),
        level: 'error',
        message: `\`match.files\` entry ${entry} names a file group avp does not know`,
        fix: `write the globs out (e.g. "*.ts"); avp knows ${Object.keys(FILE_GROUPS)
          .map((g) => `@file_groups/${g}`)
          .join(' and ')}`,
      });
    }
  });
  return out;
}

/** A pattern such as `.*write.*` matches no tool name in avp (case-sensitive) though the reference ignores case. */
function warnCaseOnlyTools(tools: unknown, fm: Fm, problems: Problem[]): void {
  const list = typeof tools === 'string' ? [tools] : Array.isArray(tools) ? tools : [];
  list.forEach((entry, i) => {
    if (typeof entry !== 'string') return;
    let exact: RegExp;
    let folded: RegExp;
    try {
      exact = new RegExp(`^(?:${entry})$`);
      folded = new RegExp(`^(?:${entry})$`, 'i');
    } catch {
      return; // the schema reports the bad regex
    }
    const onlyFolded = KNOWN_TOOLS.filter((t) => !exact.test(t) && folded.test(t));
    if (!onlyFolded.length || KNOWN_TOOLS.some((t) => exact.test(t))) return;
    problems.push({
      ...fm.locate(typeof tools === 'string' ? ['match', 'tools'] : ['match', 'tools', i]),
      level: 'warning',
      message:
        `\`${entry}\` never matches: tool names are case-sensitive (Claude Code calls it \`${onlyFolded.join('`, `')}\`)` +
        ' — it matches no tool name as written; the reference implementation ignored case',
      fix: `write the names as Claude Code spells them, e.g. \`${onlyFolded.slice(0, 2).join('|')}\``,
    });
  });
}
