/**
 * Splits a VALIDATOR.md into YAML frontmatter and markdown body, parses the YAML (gray-matter's js-yaml engine) and
 * maps keys back to file positions so every schema problem can be reported at `file:line:col`.
 *
 * This module imports gray-matter: it is loaded only on a parse-cache miss, never on a warm hook call.
 */
import matter from 'gray-matter';

/** A problem found while reading a file, positioned in the file (1-based). */
export interface Problem {
  line: number;
  column: number;
  message: string;
  fix?: string;
  level: 'error' | 'warning';
}

/** A parsed VALIDATOR.md: frontmatter data, body and a key locator. */
export interface Frontmatter {
  /** The parsed YAML mapping (JSON-normalised: dates become ISO strings). */
  data: Record<string, unknown>;
  /** The markdown after the closing `---`. */
  body: string;
  /** File line (1-based) of the first body line. */
  bodyLine: number;
  /** Finds the position of a key path such as `['match', 'tools', 1]`. */
  locate: (path: ReadonlyArray<string | number>) => { line: number; column: number };
}

const FENCE = /^---[ \t]*$/;

/**
 * Bounds on frontmatter YAML, enforced wherever avp parses it (hook discovery, `avp lint`, publish, install, the
 * registry's upload checks). js-yaml resolves an alias to the anchored object itself, so parsing a "billion laughs"
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

/**
 * Parses `text` (the whole file). Returns the frontmatter, or a problem when the file has no frontmatter, the fence
 * is not closed, or the YAML is invalid (at the YAML error's own line).
 */
export function parseFrontmatter(text: string): Frontmatter | Problem {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = src.split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) {
    return problem(
      1,
      1,
      'no YAML frontmatter: a validator starts with a `---` line',
      'start the file with `---`, the frontmatter (name, description, severity, trigger), then `---` and the prompt',
    );
  }
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (FENCE.test(lines[i]!)) {
      close = i;
      break;
    }
  }
  if (close < 0) return problem(1, 1, 'frontmatter is not closed', 'add a `---` line after the last frontmatter key');
  const yamlLines = lines.slice(1, close);
  const yamlText = yamlLines.join('\n');
  const size = Buffer.byteLength(yamlText);
  if (size > YAML_LIMITS.bytes) {
    return problem(
      2,
      1,
      `frontmatter is ${Math.ceil(size / 1024)} KiB; the limit is ${YAML_LIMITS.bytes / 1024} KiB`,
      'keep the frontmatter to its keys and move long text into the prompt below the closing `---`',
    );
  }
  // YAML does not read a tab as indentation: `\ttools: [Write]` under `match:` becomes a top-level key and `match`
  // stays empty — a validator that matches every tool. That is a broken validator, not a warning.
  const tabbed = yamlLines.findIndex((l) => /^ *\t/.test(l));
  if (tabbed >= 0) {
    const key = /^\s*([\w.-]+)\s*:/.exec(yamlLines[tabbed]!)?.[1];
    return problem(
      tabbed + 2,
      /^ */.exec(yamlLines[tabbed]!)![0].length + 1,
      `indented with a tab: YAML does not read tabs as indentation${key ? `, so \`${key}\` would not be nested under the key above it` : ''}`,
      'indent with spaces (two per level)',
    );
  }
  const aliases = aliasPositions(yamlLines);
  if (aliases.length > YAML_LIMITS.aliases) {
    const at = aliases[YAML_LIMITS.aliases]!;
    return problem(
      at.line,
      at.column,
      `frontmatter uses more than ${YAML_LIMITS.aliases} YAML aliases (\`*name\`)`,
      'write the values out instead of repeating anchors with aliases',
    );
  }
  let parsed: unknown;
  try {
    // gray-matter's yaml engine is js-yaml's safeLoad: no custom tags, no code execution.
    parsed = (matter as unknown as { engines: { yaml: { parse: (s: string) => unknown } } }).engines.yaml.parse(
      yamlText,
    );
  } catch (e) {
    const err = e as { reason?: string; mark?: { line: number; column: number }; message?: string };
    // YAML line 0 is file line 2 (after the opening fence).
    let at = { line: (err.mark?.line ?? 0) + 2, column: (err.mark?.column ?? 0) + 1 };
    // An unclosed quote is only noticed at the end of the stream: point at the quote that opened it.
    if (/quoted scalar/.test(err.reason ?? '')) at = openQuote(yamlLines) ?? at;
    if (at.line > close + 1) at = { line: close + 1, column: 1 };
    return problem(
      at.line,
      at.column,
      `invalid YAML: ${err.reason ?? err.message ?? String(e)}`,
      'fix the YAML syntax at this line (quote values containing `: `, `#`, `[` or `{`)',
    );
  }
  if (parsed === undefined || parsed === null) parsed = {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    return problem(
      2,
      1,
      'frontmatter must be a YAML mapping of keys to values',
      'write `key: value` lines such as `name: my-validator`',
    );
  }
  const excess = expansionExcess(parsed);
  if (excess) {
    // A bomb is made of aliases: the first one is where the expansion starts.
    const at = aliases[0] ?? { line: 2, column: 1 };
    return problem(
      at.line,
      at.column,
      `frontmatter YAML ${excess} (a YAML alias bomb?)`,
      'write the values out instead of nesting anchors and aliases',
    );
  }
  // JSON round trip: the same values whether they come from YAML now or from the JSON parse cache later.
  const data = JSON.parse(JSON.stringify(parsed)) as Record<string, unknown>;
  return {
    data,
    body: lines.slice(close + 1).join('\n'),
    bodyLine: close + 2,
    locate: (path) => locateKey(yamlLines, path),
  };
}

/**
 * What the parsed YAML exceeds once aliases are expanded (`nodes` values or `depth` levels), else undefined. The walk
 * stops at the first value past a limit, so a bomb costs at most `nodes` steps here.
 */
function expansionExcess(root: unknown): string | undefined {
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

/**
 * File positions of the YAML aliases (`*name` where a value starts: after `: `, `- `, `? `, `[`, `{`, `,` or at the
 * start of a line), skipping quoted scalars, comments and block scalars. Only used for counting and positions.
 */
function aliasPositions(yaml: string[]): Array<{ line: number; column: number }> {
  const out: Array<{ line: number; column: number }> = [];
  let blockIndent = -1; // inside a `|` or `>` block scalar: lines indented deeper than its key
  for (let i = 0; i < yaml.length; i++) {
    const l = yaml[i]!;
    const indent = indentOf(l);
    if (blockIndent >= 0) {
      if (l.trim() === '' || indent > blockIndent) continue;
      blockIndent = -1;
    }
    let quote = '';
    let valueStart = true;
    for (let j = 0; j < l.length; j++) {
      const ch = l[j]!;
      if (quote) {
        if (ch === '\\' && quote === '"') j++;
        else if (ch === quote) quote = '';
        continue;
      }
      if (ch === '#' && (j === 0 || /\s/.test(l[j - 1]!))) break;
      if (valueStart && (ch === '"' || ch === "'")) quote = ch;
      else if (valueStart && ch === '*') out.push({ line: i + 2, column: j + 1 });
      else if (valueStart && (ch === '|' || ch === '>') && /^[|>][-+0-9]*\s*(#.*)?$/.test(l.slice(j))) {
        blockIndent = indent;
        break;
      }
      if (ch === ' ' || ch === '\t') continue;
      const next = l[j + 1];
      valueStart = '[{,'.includes(ch) || ('-:?'.includes(ch) && (next === undefined || next === ' '));
    }
  }
  return out;
}

/** File position of the first value that opens a quote it does not close on the same line. */
function openQuote(yaml: string[]): { line: number; column: number } | undefined {
  for (let i = 0; i < yaml.length; i++) {
    const m = /^(\s*(?:-\s+)?(?:[^"'\s][^:]*:\s+)?)(["'])(.*)$/.exec(yaml[i]!);
    if (!m) continue;
    const q = m[2]!;
    const rest = m[3]!.replace(q === '"' ? /\\./g : /''/g, '');
    if (!rest.includes(q)) return { line: i + 2, column: m[1]!.length + 1 };
  }
  return undefined;
}

function problem(line: number, column: number, message: string, fix: string): Problem {
  return { line, column, message, fix, level: 'error' };
}

/** True when `x` is a Problem rather than parsed frontmatter. */
export function isProblem(x: Frontmatter | Problem): x is Problem {
  return (x as Problem).message !== undefined && (x as Frontmatter).data === undefined;
}

const indentOf = (s: string) => s.length - s.trimStart().length;
const isContent = (s: string) => s.trim() !== '' && !s.trimStart().startsWith('#');
const KEY = /^(["']?)([^"':#]+?)\1\s*:(?:\s|$)/;

/**
 * Best-effort position of a key path in block-style YAML: keys are found by indentation, list indexes by `- ` items.
 * For a flow-style value (`tools: [a, b]`) it returns the value's position on the key's line. Falls back to the
 * deepest position found, else line 2 column 1 (the first frontmatter line).
 */
function locateKey(yaml: string[], path: ReadonlyArray<string | number>): { line: number; column: number } {
  let best = { line: 2, column: 1 };
  let from = 0;
  let to = yaml.length;
  for (const seg of path) {
    // The children of the current scope are its content lines at the smallest indent found in it.
    let childIndent = Infinity;
    for (let i = from; i < to; i++) if (isContent(yaml[i]!)) childIndent = Math.min(childIndent, indentOf(yaml[i]!));
    let found = -1;
    let nth = -1;
    for (let i = from; i < to && found < 0; i++) {
      const l = yaml[i]!;
      if (!isContent(l) || indentOf(l) !== childIndent) continue;
      const t = l.trimStart();
      if (typeof seg === 'number') {
        if (t.startsWith('- ') || t === '-') nth++;
        if (nth === seg) found = i;
      } else if (KEY.exec(t)?.[2] === seg) {
        found = i;
      }
    }
    if (found < 0) return best;
    const l = yaml[found]!;
    const ind = indentOf(l);
    if (typeof seg === 'number') {
      best = { line: found + 2, column: ind + 3 };
    } else {
      const colon = l.indexOf(':', ind);
      const rest = l.slice(colon + 1);
      const inline = rest.trim() !== '' && !rest.trim().startsWith('#');
      best = { line: found + 2, column: inline ? colon + 2 + indentOf(rest) : ind + 1 };
    }
    // The next scope: following lines indented deeper, plus `- ` items at the key's own indent (`key:\n- a`).
    from = found + 1;
    to = from;
    while (to < yaml.length) {
      const n = yaml[to]!;
      if (isContent(n)) {
        const ni = indentOf(n);
        const sameIndentItem = typeof seg === 'string' && ni === ind && n.trimStart().startsWith('-');
        if (ni <= ind && !sameIndentItem) break;
      }
      to++;
    }
  }
  return best;
}
