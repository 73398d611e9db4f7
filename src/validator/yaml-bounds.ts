/**
 * The bounds on frontmatter YAML that the `yaml` package does not enforce itself. It bounds alias expansion
 * (`maxAliasCount`, used in frontmatter.ts) and reports a stack overflow as an error, but it has no bound on input
 * size, nesting or value count, and its parse time grows with them: 64 KiB of `[` or of list items take it a second.
 */
import { Lexer } from 'yaml';

/**
 * Bounds on frontmatter YAML, enforced wherever avp parses it (hook discovery, `avp lint`, publish, install, the
 * registry's upload checks). yaml resolves an alias to the anchored value itself, so parsing a "billion laughs"
 * document is cheap; expanding it (the JSON round trip, schema checks, the parse cache) is what costs seconds and
 * gigabytes. `nodes` bounds that expansion: every value counted as often as aliases make it appear.
 */
export const YAML_LIMITS = {
  /** The frontmatter text between the `---` lines, in UTF-8 bytes. Real validators use well under 4 KiB. */
  bytes: 64 * 1024,
  /** Alias (`*name`) occurrences. */
  aliases: 100,
  /** Values after alias expansion (mappings, lists and scalars). */
  nodes: 10_000,
  /** Nesting of mappings and lists. */
  depth: 64,
};

/** Lexer tokens that mark a position without being source text. */
const MARKERS = new Set(['\u0002', '\u0018', '\u001f']);
/** Block indicators: each one on a line opens a collection (`- - x`, `- ? k`, `- k: v`). */
const BLOCK_INDICATORS = new Set(['-', '?', ':']);

/**
 * A first pass over yaml's own tokens, before it builds anything: the source offset where the nesting passes
 * `depth` (flow brackets, or block indicators on one line) or the scalar values pass `nodes` (a scalar followed by
 * `:` is a key, not a value), else undefined. Lexing stops there, so a hostile frontmatter costs milliseconds
 * instead of yaml's recursive compose.
 */
export function tokenExcess(src: string): { offset: number; excess: string } | undefined {
  let offset = 0;
  let flow = 0;
  let onLine = 0;
  let values = 0;
  let scalarSource = false; // the token after the scalar marker is the scalar's text, whatever it looks like
  let afterScalar = false; // the last token that is not a space was a scalar
  for (const token of new Lexer().lex(src)) {
    const at = offset;
    if (!MARKERS.has(token)) offset += token.length;
    if (scalarSource) {
      scalarSource = false;
      continue;
    }
    if (token[0] === ' ' || token[0] === '\t') continue;
    const wasScalar = afterScalar;
    afterScalar = false;
    if (token === '\u001f' || token[0] === '"' || token[0] === "'") {
      scalarSource = token === '\u001f';
      afterScalar = true;
      if (++values > YAML_LIMITS.nodes)
        return { offset: at, excess: `expands to more than ${YAML_LIMITS.nodes} values` };
      continue;
    }
    if (token === ':' && wasScalar) values--;
    if (token === '[' || token === '{') {
      if (++flow > YAML_LIMITS.depth) return { offset: at, excess: `nests deeper than ${YAML_LIMITS.depth} levels` };
    } else if (token === ']' || token === '}') {
      flow--;
    } else if (token === '\n' || token === '\r\n') {
      onLine = 0;
    } else if (flow <= 0 && BLOCK_INDICATORS.has(token) && ++onLine > YAML_LIMITS.depth) {
      return { offset: at, excess: `nests deeper than ${YAML_LIMITS.depth} levels` };
    }
  }
  return undefined;
}

/**
 * What the parsed value exceeds once aliases are expanded (`nodes` values or `depth` levels), else undefined. Kept
 * beside yaml's maxAliasCount, which counts alias uses but not the size of what they stand for (100 uses of an
 * anchored 5,000-item list pass it), and sets no nesting bound. The walk stops at the first value past a limit.
 */
export function expansionExcess(root: unknown): string | undefined {
  let nodes = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (++nodes > YAML_LIMITS.nodes) return `expands to more than ${YAML_LIMITS.nodes} values`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > YAML_LIMITS.depth) return `nests deeper than ${YAML_LIMITS.depth} levels`;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return undefined;
}
