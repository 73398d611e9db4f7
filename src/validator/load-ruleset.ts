/**
 * The RuleSet form the public registry carries: `name/VALIDATOR.md` + `rules/*.md`. Each rule is its own validator
 * (id `name/rule`) whose prompt is the RuleSet's body followed by the rule's body; a rule's frontmatter may override
 * `severity` and `timeout` (and give its own `description`); keys that would change what it matches are errors.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readRegularText } from '../os/read-regular.ts';
import { isProblem, parseFrontmatter, type Frontmatter } from './frontmatter.ts';
import { mapReferenceDialect } from './reference-dialect.ts';
import { TOOL_RULE_NOT_RUN, validateRuleFrontmatter, type RuleFrontmatter } from './rule-frontmatter.ts';
import { checkRuleRelations, type RuleFact } from './rule-relations.ts';
import { NAME_FIX, NAME_RE } from './schema.ts';
import { checkMentions, hashFiles } from './load-support.ts';
import { hashInputs, type Collector } from './load.ts';
import type { ValidatorSpec } from './types.ts';

/** What `loadDir` already read about the RuleSet. */
export interface RuleSetInput {
  dir: string;
  /** The RuleSet's VALIDATOR.md. */
  path: string;
  fm: Frontmatter & { text: string };
  /** Undefined when VALIDATOR.md itself has errors (already recorded); rules are still checked for lint. */
  spec: ValidatorSpec | undefined;
  references: string[];
  files: string[];
  c: Collector;
}

/**
 * Every rule file under `rules/`, in subfolders too (the reference loads them recursively: `rules/security/x.md`
 * is rule `x`), sorted by path. Names starting with `.` are skipped, as everywhere in discovery.
 */
function ruleFilesUnder(rulesDir: string, depth = 0): string[] {
  const out: string[] = [];
  for (const e of readdirSync(rulesDir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = join(rulesDir, e.name);
    if (e.isDirectory() && depth < 8) out.push(...ruleFilesUnder(p, depth + 1));
    else if ((e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.md')) out.push(p);
  }
  return out.sort();
}

/** Loads every `rules/**\/*.md` of a RuleSet into `c` (a RuleSet with no rule is an error). */
export function loadRules({ dir, path, fm, spec, references, files, c }: RuleSetInput): void {
  const rulesDir = join(dir, 'rules');
  const ruleFiles = ruleFilesUnder(rulesDir);
  const seen = new Map<string, string>();
  if (ruleFiles.length === 0) {
    c.add(path, {
      line: 1,
      column: 1,
      level: 'error',
      message: 'RuleSet has a rules/ folder without any rule',
      fix: `add at least one rule file such as ${join(rulesDir, 'first-rule.md')}, or remove the empty rules/ folder`,
    });
    return;
  }
  const baseFailed = c.failed;
  const ruleFacts: RuleFact[] = [];
  for (const rulePath of ruleFiles) {
    const rule = basename(rulePath, '.md');
    const errorsBefore = c.result.errors.length;
    const first = seen.get(rule);
    if (first) {
      c.add(rulePath, {
        line: 1,
        column: 1,
        level: 'error',
        message: `rule name ${rule} is used twice in this RuleSet (also ${first}); rule ids must be unique`,
        fix: `rename one of the two files`,
      });
      continue;
    }
    seen.set(rule, rulePath);
    if (!NAME_RE.test(rule) || rule.length > 64) {
      c.add(rulePath, {
        line: 1,
        column: 1,
        level: 'error',
        message: `rule file name ${basename(rulePath)} is not a valid rule name`,
        fix: `rename it: ${NAME_FIX}`,
      });
    }
    let text: string;
    try {
      text = readRegularText(rulePath);
    } catch (e) {
      c.add(rulePath, {
        line: 1,
        column: 1,
        level: 'error',
        message: `cannot read the rule: ${(e as Error).message}`,
        fix: 'check the file is readable',
      });
      continue;
    }
    // A rule's frontmatter is optional: a plain markdown rule inherits everything from the RuleSet.
    let body = text;
    let bodyLine = 1;
    let overrides: RuleFrontmatter = { problems: [] };
    let locate: RuleFact['locate'];
    if (/^\uFEFF?---[ \t]*\r?\n/.test(text)) {
      const rfm = parseFrontmatter(text);
      if (isProblem(rfm)) {
        c.add(rulePath, rfm);
        continue;
      }
      body = rfm.body;
      bodyLine = rfm.bodyLine;
      // The reference's file groups (`@file_groups/source_code`) expand in a rule's match as in the RuleSet's.
      const mapped: RuleFrontmatter['problems'] = [];
      overrides = validateRuleFrontmatter({ data: mapReferenceDialect(rfm, mapped, {}), locate: rfm.locate });
      for (const p of [...mapped, ...overrides.problems]) c.add(rulePath, p);
      locate = rfm.locate;
      if (typeof rfm.data.name === 'string' && rfm.data.name !== rule) {
        c.add(rulePath, {
          ...rfm.locate(['name']),
          level: 'warning',
          message: `rule name \`${rfm.data.name}\` differs from its file name; the rule id is ${basename(dir)}/${rule}`,
          fix: `rename the file to ${rfm.data.name}.md or remove \`name\``,
        });
      }
    }
    ruleFacts.push({
      rule,
      path: rulePath,
      tool: Boolean(overrides.tool),
      ...(locate ? { locate } : {}),
      ...(overrides.match ? { match: overrides.match } : {}),
      ...(overrides.supersedes ? { supersedes: overrides.supersedes } : {}),
    });
    if (!body.trim()) {
      c.add(rulePath, {
        line: bodyLine,
        column: 1,
        level: 'error',
        message: 'the rule has no prompt text',
        fix: 'write what this rule checks below the frontmatter',
      });
    }
    const linked = checkMentions(rulePath, body, bodyLine, dir, c);
    if (!spec || baseFailed || c.result.errors.length > errorsBefore) continue;
    const ruleRefs = [...new Set([...references, ...linked])].sort();
    c.result.validators.push({
      id: `${spec.name}/${rule}`,
      name: spec.name,
      rule,
      source: c.source,
      form: 'ruleset',
      path: rulePath,
      dir,
      spec: {
        ...spec,
        ...(overrides.severity ? { severity: overrides.severity } : {}),
        ...(overrides.timeout !== undefined ? { timeout: overrides.timeout } : {}),
        ...(overrides.description !== undefined ? { description: overrides.description } : {}),
        ...(overrides.match ? { ruleMatch: overrides.match } : {}),
      },
      body: [fm.body.trim(), body.trim()].filter(Boolean).join('\n\n'),
      references: ruleRefs,
      hash: hashFiles(dir, hashInputs(dir, [path, rulePath], ruleRefs, files)),
      ...(overrides.tool
        ? { notRun: `${TOOL_RULE_NOT_RUN}${overrides.tool.program ? ` (${overrides.tool.program})` : ''}` }
        : {}),
      ...(overrides.supersedes ? { supersedes: overrides.supersedes } : {}),
    });
  }
  if (spec) checkRuleRelations(spec, ruleFacts, c);
}
