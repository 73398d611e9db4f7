/**
 * "Billion laughs" frontmatter for the YAML-limit tests: nine levels of nine aliases to the level below, under 500
 * bytes of YAML that expand to 9^9 values. The first alias is on file line 5 (`b: &b [*a, …]`).
 */
export const BOMB_ALIAS_LINE = 5;

export function bombValidatorMd(name: string): string {
  const lines = ['---', `name: ${name}`, 'description: expands forever', 'a: &a [l, l, l, l, l, l, l, l, l]'];
  let prev = 'a';
  for (const n of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) {
    lines.push(`${n}: &${n} [${Array(9).fill(`*${prev}`).join(',')}]`);
    prev = n;
  }
  lines.push('severity: error', 'trigger: PostToolUse', 'metadata:', '  version: "1.0.0"', '---', 'Check it.', '');
  return lines.join('\n');
}
