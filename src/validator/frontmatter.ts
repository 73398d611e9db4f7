/**
 * Splits a VALIDATOR.md into YAML frontmatter and markdown body (gray-matter), parses the YAML (the `yaml` package as
 * gray-matter's engine: it reports every error and every node with its source offset, refuses duplicate keys and
 * tabs as indentation, and bounds alias expansion) and maps keys back to file positions, so every schema problem can
 * be reported at `file:line:col`.
 *
 * This module imports gray-matter and yaml: it is loaded only on a parse-cache miss, never on a warm hook call.
 */
import matter from 'gray-matter';
import { LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { expansionExcess, tokenExcess, YAML_LIMITS } from './yaml-bounds.ts';
import { aliasesOf, locateIn, positionOf, yamlProblem } from './yaml-positions.ts';

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
  /** The parsed YAML mapping (JSON-normalised, as the parse cache stores it). */
  data: Record<string, unknown>;
  /** The markdown after the closing `---`. */
  body: string;
  /** File line (1-based) of the first body line. */
  bodyLine: number;
  /** Finds the position of a key path such as `['match', 'tools', 1]`. */
  locate: (path: ReadonlyArray<string | number>) => { line: number; column: number };
}

export { YAML_LIMITS } from './yaml-bounds.ts';

/** The first line of a validator. gray-matter reads text after `---` as an engine name (see parseFrontmatter). */
const FENCE = /^---[ \t]*\r?$/;

/** What gray-matter's yaml engine leaves: the document, the counter mapping its offsets to lines, and its data. */
interface Parsed {
  doc: Document;
  lines: LineCounter;
  data: Record<string, unknown>;
}

/**
 * Parses `text` (the whole file). Returns the frontmatter, or a problem when the file has no frontmatter, the fence
 * is not closed, or the YAML is invalid or past a limit (at the line the problem is on).
 */
export function parseFrontmatter(text: string): Frontmatter | Problem {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // gray-matter takes the rest of the first line as the name of an engine, and its default `javascript` engine runs
  // `---js` frontmatter through eval: a validator's first line is `---` alone, so only the yaml engine below runs.
  if (!FENCE.test(/^[^\n]*/.exec(src)![0])) {
    return problem(
      1,
      1,
      'no YAML frontmatter: a validator starts with a `---` line',
      'start the file with `---`, the frontmatter (name, description, severity, trigger), then `---` and the prompt',
    );
  }
  let parsed: Parsed | Problem | undefined; // stays undefined for an empty frontmatter (gray-matter skips the engine)
  const file = matter(src, { language: 'yaml', engines: { yaml: (yaml: string) => ((parsed = parseYaml(yaml)), {}) } });
  // gray-matter's `matter` is everything after the opening `---`, from the rest of that line on (its line N is file
  // line N) up to the next line that starts with `---`; unclosed, it runs to the end of the file.
  if (file.matter.length >= src.length - 3) {
    return problem(1, 1, 'frontmatter is not closed', 'add a `---` line after the last frontmatter key');
  }
  const closeLine = file.matter.split('\n').length + 1;
  // gray-matter closes at a line that only starts with `---`: one with more on it is not a fence here.
  const closeRest = /^[^\n]*/.exec(src.slice(3 + file.matter.length + 4))![0];
  if (!/^[ \t]*\r?$/.test(closeRest)) {
    return problem(closeLine, 1, 'the line closing the frontmatter has text after `---`', 'put `---` alone on it');
  }
  const fm = parsed as Parsed | Problem | undefined;
  if (fm && 'message' in fm) return fm;
  // gray-matter leaves the close line's trailing blanks in the body, and CRLF line ends: the prompt is read as LF.
  const body = /^[ \t]/.test(closeRest) ? file.content.slice(closeRest.length + 1) : file.content;
  return {
    data: fm?.data ?? {},
    body: body.replace(/\r\n/g, '\n'),
    bodyLine: closeLine + 1,
    locate: (path) => (fm ? locateIn(fm.doc, fm.lines, path) : { line: 2, column: 1 }),
  };
}

const PREPASS_BYTES = 4 * 1024;

/** gray-matter's yaml engine: `yaml` (the frontmatter text, from the rest of the first line) under YAML_LIMITS. */
function parseYaml(yaml: string): Parsed | Problem {
  // yaml has no input bound, and its parse time grows with the text: refuse before parsing.
  const size = Buffer.byteLength(yaml);
  if (size > YAML_LIMITS.bytes) {
    return problem(
      2,
      1,
      `frontmatter is ${Math.ceil(size / 1024)} KiB; the limit is ${YAML_LIMITS.bytes / 1024} KiB`,
      'keep the frontmatter to its keys and move long text into the prompt below the closing `---`',
    );
  }
  // The token pass costs a quarter of a parse: only past 4 KiB, where yaml's compose could take long. Below that
  // the parse is quick whatever the shape, and expansionExcess bounds what it built.
  const tokens = size > PREPASS_BYTES ? tokenExcess(yaml) : undefined;
  if (tokens) {
    const before = yaml.slice(0, tokens.offset);
    return problem(
      before.split('\n').length,
      tokens.offset - before.lastIndexOf('\n'),
      `frontmatter YAML ${tokens.excess}`,
      'write the values out instead of nesting lists and mappings this deep or listing this many',
    );
  }
  const lines = new LineCounter();
  // Duplicate keys and tabs as indentation are errors by default; `merge` keeps the `<<` keys js-yaml read.
  // With CRLF line ends the text gray-matter hands over ends in the `\r` of `\r\n---`, which yaml would keep.
  const doc = parseDocument(yaml.replace(/\r$/, ''), {
    lineCounter: lines,
    prettyErrors: false,
    logLevel: 'error',
    merge: true,
  });
  if (doc.errors.length || doc.warnings.length) return yamlProblem(doc, lines, yaml, [...doc.errors, ...doc.warnings]);
  // A bomb is made of aliases: the first one is where the expansion starts.
  const bomb = (excess: string) =>
    problem(
      ...at(lines, aliasesOf(doc)[0]),
      `frontmatter YAML ${excess} (a YAML alias bomb?)`,
      'write the values out instead of nesting anchors and aliases',
    );
  let value: unknown;
  let aliases = 0; // counted while converting (onAnchor), so a document without a problem is walked once
  try {
    // yaml's own bound: it refuses an alias whose uses times the aliases inside its anchor pass maxAliasCount, before
    // building anything (that product never exceeds the values the alias expands to, so the message holds).
    value = doc.toJS({ maxAliasCount: YAML_LIMITS.nodes, onAnchor: (_value, count) => void (aliases += count) });
  } catch (e) {
    if (e instanceof ReferenceError && /alias count/.test(e.message)) {
      return bomb(`expands to more than ${YAML_LIMITS.nodes} values`);
    }
    return problem(2, 1, `invalid YAML: ${(e as Error).message}`, 'fix the YAML at the alias it names');
  }
  if (aliases > YAML_LIMITS.aliases) {
    return problem(
      ...at(lines, aliasesOf(doc)[YAML_LIMITS.aliases]),
      `frontmatter uses more than ${YAML_LIMITS.aliases} YAML aliases (\`*name\`)`,
      'write the values out instead of repeating anchors with aliases',
    );
  }
  if (value === undefined || value === null) value = {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return problem(
      2,
      1,
      'frontmatter must be a YAML mapping of keys to values',
      'write `key: value` lines such as `name: my-validator`',
    );
  }
  const excess = expansionExcess(value);
  if (excess) return bomb(excess);
  // JSON round trip: the same values whether they come from YAML now or from the JSON parse cache later.
  return { doc, lines, data: JSON.parse(JSON.stringify(value)) as Record<string, unknown> };
}

/** `[line, column]` of a node (line 2 column 1 without one), to spread into `problem`. */
const at = (lines: LineCounter, node: Node | undefined): [number, number] => {
  const p = node?.range ? positionOf(lines, node.range[0]) : { line: 2, column: 1 };
  return [p.line, p.column];
};

function problem(line: number, column: number, message: string, fix: string): Problem {
  return { line, column, message, fix, level: 'error' };
}

/** True when `x` is a Problem rather than parsed frontmatter. */
export function isProblem(x: Frontmatter | Problem): x is Problem {
  return (x as Problem).message !== undefined && (x as Frontmatter).data === undefined;
}
