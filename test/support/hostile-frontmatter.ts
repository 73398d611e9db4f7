/**
 * Frontmatter an attacker could write into a VALIDATOR.md, each with where and how avp must refuse it. The line and
 * column are the file position `avp lint` names (the frontmatter's first key is on line 2).
 */
const head = (name: string) => `---\nname: ${name}\ndescription: Hostile.\nseverity: error\ntrigger: PostToolUse\n`;
const md = (name: string, yaml: string) => `${head(name)}${yaml}\n---\nCheck it.\n`;

export interface HostileCase {
  name: string;
  text: string;
  line: number;
  column: number;
  message: RegExp;
}

/** A file the attacker's payload would create if avp ever ran it. */
export const PWNED = 'pwned-by-frontmatter';

export function hostileCases(marker: string): HostileCase[] {
  const run = `require('fs').writeFileSync('${marker}', 'x')`;
  return [
    {
      name: 'ten-megabytes',
      text: md('ten-megabytes', `metadata:\n  filler: "${'x'.repeat(10 * 1024 * 1024)}"`),
      line: 2,
      column: 1,
      message: /frontmatter is 10241 KiB; the limit is 64 KiB/,
    },
    {
      // 30,000 levels fit in 64 KiB; yaml composes them recursively (a second to overflow its stack).
      name: 'deep-flow',
      text: md('deep-flow', `deep: ${'['.repeat(30_000)}1${']'.repeat(30_000)}`),
      line: 6,
      column: 7 + 64,
      message: /frontmatter YAML nests deeper than 64 levels/,
    },
    {
      name: 'deep-flow-mappings',
      text: md('deep-flow-mappings', `deep: ${'{a: '.repeat(12_000)}`),
      line: 6,
      column: 7 + 64 * 4,
      message: /frontmatter YAML nests deeper than 64 levels/,
    },
    {
      name: 'deep-block',
      text: md('deep-block', `deep:\n  ${'- '.repeat(25_000)}x`),
      line: 7,
      column: 3 + 64 * 2,
      message: /frontmatter YAML nests deeper than 64 levels/,
    },
    {
      name: 'many-values',
      text: md('many-values', `tags: [${'a,'.repeat(25_000)}a]`),
      line: 6,
      column: 8 + 2 * (10_000 - 4), // the 10,001st scalar value: 4 values come before the list (keys do not count)
      message: /frontmatter YAML expands to more than 10000 values/,
    },
    {
      name: 'js-function-tag',
      text: md('js-function-tag', `metadata:\n  f: !!js/function "function () { ${run} }"`),
      line: 7,
      column: 6,
      message: /invalid YAML: Unresolved tag: tag:yaml\.org,2002:js\/function/,
    },
    {
      name: 'duplicate-key',
      text: md('duplicate-key', 'severity: warn'),
      line: 6,
      column: 1,
      message: /invalid YAML: Map keys must be unique/,
    },
    {
      // gray-matter reads `---js` as "evaluate this frontmatter as JavaScript".
      name: 'javascript-frontmatter',
      text: `---js\n{ name: (function () { ${run}; return 'javascript-frontmatter' })() }\n---\nCheck it.\n`,
      line: 1,
      column: 1,
      message: /no YAML frontmatter: a validator starts with a `---` line/,
    },
  ];
}
