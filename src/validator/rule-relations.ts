/**
 * Checks across a RuleSet's rules that no single rule file can make: what a rule `supersedes` must exist (and only
 * a tool rule supersedes anything), and a rule whose own `match` shares nothing with its RuleSet's never runs.
 * Warnings only: the reference publishes these RuleSets, and avp loads them as they are.
 */
import type { Frontmatter } from './frontmatter.ts';
import type { Collector } from './load.ts';
import type { ValidatorSpec } from './types.ts';

/** What the loader learnt about one rule file. */
export interface RuleFact {
  rule: string;
  path: string;
  match?: { tools?: string[]; files?: string[] };
  supersedes?: string[];
  tool: boolean;
  locate?: Frontmatter['locate'];
}

const PLAIN_TOOLS = /^[A-Za-z0-9_]+(?:\|[A-Za-z0-9_]+)*$/;
const EXTENSION_GLOB = /^(?:\*\*\/)?\*\.([A-Za-z0-9]+)$/;

/** The names a tools list accepts, when every entry is a plain name or an alternation of names; else undefined. */
function plainTools(list: string[] | undefined): Set<string> | undefined {
  if (!list?.length || !list.every((t) => PLAIN_TOOLS.test(t))) return undefined;
  return new Set(list.flatMap((t) => t.split('|')));
}

/** The extensions a files list accepts, when every entry is `*.ext` or `**\/*.ext`; else undefined. */
function extensions(list: string[] | undefined): Set<string> | undefined {
  if (!list?.length) return undefined;
  const exts = list.map((f) => EXTENSION_GLOB.exec(f)?.[1]);
  return exts.every(Boolean) ? new Set(exts as string[]) : undefined;
}

const disjoint = (a: Set<string>, b: Set<string>) => ![...a].some((x) => b.has(x));

export function checkRuleRelations(spec: ValidatorSpec, facts: RuleFact[], c: Collector): void {
  const names = new Set(facts.map((f) => f.rule));
  for (const f of facts) {
    const at = (path: string[]) => ({ ...(f.locate?.(path) ?? { line: 1, column: 1 }), level: 'warning' as const });
    for (const name of f.supersedes ?? []) {
      if (names.has(name) && name !== f.rule) continue;
      c.add(f.path, {
        ...at(['supersedes']),
        message: `\`supersedes\` names ${name}, which is ${name === f.rule ? 'this rule itself' : 'no rule of this RuleSet'}`,
        fix: `name one of: ${[...names].filter((n) => n !== f.rule).join(', ')}`,
      });
    }
    if (f.supersedes && !f.tool) {
      c.add(f.path, {
        ...at(['supersedes']),
        message: '`supersedes` has no effect on a prompt rule (only a tool rule replaces prompt rules); ignored',
        fix: 'remove `supersedes`, or give the rule the `tool` block that replaces them',
      });
    }
    const setTools = plainTools(spec.match.tools);
    const ruleTools = plainTools(f.match?.tools);
    const setExts = extensions(spec.match.files);
    const ruleExts = extensions(f.match?.files);
    const never =
      setTools && ruleTools && disjoint(setTools, ruleTools)
        ? (['tools', 'no tool'] as const)
        : setExts && ruleExts && disjoint(setExts, ruleExts)
          ? (['files', 'no file'] as const)
          : undefined;
    if (never) {
      c.add(f.path, {
        ...at(['match', never[0]]),
        message:
          `this rule never runs: its \`match.${never[0]}\` narrows the RuleSet's, and ${never[1]} matches both ` +
          `(${[...(never[0] === 'tools' ? ruleTools! : ruleExts!)].join(', ')} against ` +
          `${[...(never[0] === 'tools' ? setTools! : setExts!)].join(', ')})`,
        fix: `write \`match.${never[0]}\` entries the RuleSet's VALIDATOR.md also matches, or move the rule elsewhere`,
      });
    }
  }
}
