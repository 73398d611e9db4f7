/**
 * The AVP 1.0 frontmatter schema (valibot) with a message and a fix for every rule, plus the avp extensions `script`
 * and `model`. Loaded only on a parse-cache miss (valibot costs ~8 ms at startup).
 */
import { closest, didYouMean } from '../did-you-mean.ts';
import * as v from 'valibot';
import { MATCHER_TRIGGERS, SEVERITIES, STOP_TRIGGERS, TOOL_TRIGGERS, TRIGGERS, type ValidatorSpec } from './types.ts';
import type { Frontmatter, Problem } from './frontmatter.ts';
import { mapReferenceDialect } from './reference-dialect.ts';

/** The name rule of AVP 1.0 (also the registry's package-name rule). */
export const NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const NAME_FIX =
  'use 1–64 characters of a-z, 0-9 and single hyphens, not starting or ending with a hyphen (e.g. `no-secrets`)';
const TAG_RE = NAME_RE;
export const KNOWN_KEYS = [
  'name',
  'description',
  'severity',
  'trigger',
  'match',
  'triggerMatcher',
  'tags',
  'once',
  'timeout',
  'license',
  'compatibility',
  'metadata',
  'script',
  'model',
  'batch',
];
const MATCH_KEYS = ['tools', 'files'];
/** Triggers whose events carry changed files (`match.files` applies). */
const FILE_TRIGGERS = [...TOOL_TRIGGERS, ...STOP_TRIGGERS];
export const DEFAULT_TIMEOUT = 60;
const MAX_TIMEOUT = 3600;

// valibot carries one string per issue: `message` and `fix` travel joined by a unit separator.
export const SEP = '\u001f';
const say = (message: string, fix: string) => `${message}${SEP}${fix}`;
const got = (issue: { received: string }) => (issue.received === 'undefined' ? 'nothing' : issue.received);

const required = (key: string, what: string, fix: string) => (issue: { received: string }) =>
  issue.received === 'undefined'
    ? say(`missing required key \`${key}\``, fix)
    : say(`\`${key}\` must be ${what}, got ${got(issue)}`, fix);

function validRegex(s: string): boolean {
  try {
    new RegExp(`^(?:${s})$`);
    return true;
  } catch {
    return false;
  }
}

const stringOrList = (key: string, item: v.GenericSchema<string, string>) =>
  v.union(
    [item, v.array(item)],
    say(`\`${key}\` must be a string or a list of strings`, `write \`${key}: [a, b]\` or a \`- a\` list`),
  );

const toolPattern = v.pipe(
  v.string(
    say(
      'a `match.tools` entry must be a string',
      'write tool names or regexes such as `Write|Edit` or `mcp__memory__.*`',
    ),
  ),
  v.minLength(1, say('a `match.tools` entry is empty', 'remove it or write a tool name such as `Write`')),
  v.check(validRegex, (i) =>
    say(
      `\`match.tools\` entry ${i.received} is not a valid regular expression`,
      'fix the regex (entries are anchored: `Write|Edit` means exactly Write or Edit)',
    ),
  ),
);
const filePattern = v.pipe(
  v.string(
    say(
      'a `match.files` entry must be a string',
      'write globs such as `*.ts` or `src/**/*.js` (quote patterns starting with `*`)',
    ),
  ),
  v.minLength(1, say('a `match.files` entry is empty', 'remove it or write a glob such as `*.ts`')),
);
const tag = v.pipe(
  v.string(say('a tag must be a string', 'write lowercase-hyphenated tags such as `security`')),
  v.regex(TAG_RE, (i) =>
    say(`tag ${i.received} is not lowercase-hyphenated`, 'use a-z, 0-9 and single hyphens, e.g. `code-quality`'),
  ),
);

export const SCHEMA = v.looseObject({
  name: v.pipe(
    v.string(required('name', 'a string', NAME_FIX)),
    v.minLength(1, say('`name` is empty', NAME_FIX)),
    v.maxLength(64, (i) => say(`\`name\` is ${i.received} characters long, at most 64 allowed`, NAME_FIX)),
    v.regex(NAME_RE, (i) => say(`\`name\` ${i.received} is not a valid validator name`, NAME_FIX)),
  ),
  description: v.pipe(
    v.string(required('description', 'a string', 'say in one sentence (1–1024 characters) what the validator checks')),
    v.check((s) => s.trim().length > 0, say('`description` is empty', 'say in one sentence what the validator checks')),
    v.maxLength(1024, (i) =>
      say(
        `\`description\` is ${i.received} characters long, at most 1024 allowed`,
        'shorten it; put details in the prompt body',
      ),
    ),
  ),
  severity: v.picklist(SEVERITIES, (i) =>
    i.received === 'undefined'
      ? say('missing required key `severity`', 'add `severity: error` (blocks), `warn` or `info`')
      : say(`\`severity\` expected info, warn or error, got ${i.received}`, 'use `severity: info`, `warn` or `error`'),
  ),
  trigger: v.picklist(TRIGGERS, (i) =>
    i.received === 'undefined'
      ? say('missing required key `trigger`', 'add `trigger: PostToolUse` (or another of the 13 AVP triggers)')
      : say(
          `\`trigger\` ${i.received} is not an AVP trigger${suggestTrigger(i.input)}`,
          `use one of ${TRIGGERS.join(', ')}`,
        ),
  ),
  match: v.optional(
    v.looseObject(
      {
        tools: v.optional(stringOrList('match.tools', toolPattern)),
        files: v.optional(stringOrList('match.files', filePattern)),
      },
      say(
        '`match` must be a mapping with `tools` and/or `files`',
        'write `match:` then indented `tools: [Write, Edit]` / `files: ["*.ts"]`',
      ),
    ),
  ),
  triggerMatcher: v.optional(
    v.pipe(
      v.string(say('`triggerMatcher` must be a string', 'write values separated by `|`, e.g. `startup|resume`')),
      v.check(
        validRegex,
        say(
          '`triggerMatcher` is not a valid regular expression',
          'write values separated by `|`, e.g. `startup|resume`',
        ),
      ),
    ),
  ),
  tags: v.optional(
    v.union([tag, v.array(tag)], say('`tags` must be a list of strings', 'write `tags: [security, style]`')),
  ),
  once: v.optional(v.boolean(say('`once` must be true or false', 'write `once: true` to run once per session'))),
  timeout: v.optional(
    v.pipe(
      v.number(say('`timeout` must be a number of seconds', 'write e.g. `timeout: 60`')),
      v.check(
        (n) => Number.isFinite(n) && n > 0 && n <= MAX_TIMEOUT,
        (i) =>
          say(
            `\`timeout\` must be between 0 and ${MAX_TIMEOUT} seconds, got ${i.received}`,
            'write e.g. `timeout: 60` (seconds)',
          ),
      ),
    ),
  ),
  license: v.optional(v.string(say('`license` must be a string', 'write an SPDX identifier such as `MIT`'))),
  compatibility: v.optional(
    v.pipe(
      v.string(say('`compatibility` must be a string', 'describe the environment it needs in one line')),
      v.maxLength(500, say('`compatibility` is over 500 characters', 'shorten it')),
    ),
  ),
  metadata: v.optional(
    v.record(
      v.string(),
      v.unknown(),
      say('`metadata` must be a mapping', 'write `metadata:` then indented `author: …`, `version: "1.0.0"`'),
    ),
  ),
  script: v.optional(
    v.pipe(
      v.string(say('`script` must be a path', 'write `script: scripts/check.ts`')),
      v.minLength(1, say('`script` is empty', 'write `script: scripts/check.ts`')),
    ),
  ),
  model: v.optional(
    v.pipe(
      v.string(say('`model` must be a string', 'write a model name, e.g. `model: claude-haiku-4-5`')),
      v.minLength(1, say('`model` is empty', 'remove it or name a model')),
    ),
  ),
  batch: v.optional(
    v.boolean(say('`batch` must be true or false', 'write `batch: false` to have this validator judged on its own')),
  ),
});

const REQUIRED_FIX: Record<string, string> = {
  name: `add \`name: <name>\` (${NAME_FIX.replace(/^use /, '')})`,
  description: 'add `description:` with one sentence (1–1024 characters) saying what the validator checks',
  severity: 'add `severity: error` (blocks), `warn` or `info`',
  trigger: 'add `trigger: PostToolUse` (or another of the 13 AVP triggers)',
};

function suggestTrigger(input: unknown): string {
  return typeof input === 'string' ? didYouMean(input, TRIGGERS) : '';
}

export const list = (x: string | string[] | undefined) => (x === undefined ? undefined : Array.isArray(x) ? x : [x]);

/**
 * Validates frontmatter data. Returns the spec with defaults filled in when there is no error, and every problem
 * (errors and warnings) positioned through `fm.locate`. `ruleset`: the VALIDATOR.md of a RuleSet, where the
 * reference's format may leave `severity` and `trigger` to its defaults (reference-dialect.ts).
 */
export function validateSpec(
  fm: Pick<Frontmatter, 'data' | 'locate'>,
  opts: { ruleset?: boolean } = {},
): { spec?: ValidatorSpec; problems: Problem[] } {
  const problems: Problem[] = [];
  const explained = new Set<string>(); // unknown keys already named by a missing-key error (one message each)
  const data = withoutEmpty({ data: mapReferenceDialect(fm, problems, opts), locate: fm.locate }, problems);
  const result = v.safeParse(SCHEMA, data, { abortPipeEarly: true });
  if (!result.success) {
    for (const issue of result.issues) {
      const path = (issue.path ?? []).map((p) => p.key as string | number);
      let [message, fix] = issue.message.split(SEP);
      let at = fm.locate(path.length ? path : ['']);
      if (
        fix === undefined &&
        path.length === 1 &&
        REQUIRED_FIX[path[0] as string] &&
        data[path[0] as string] === undefined
      ) {
        // valibot reports a missing key with the object's generic message: say which key and how to add it.
        message = `missing required key \`${path[0]}\``;
        fix = REQUIRED_FIX[path[0] as string];
        at = { line: 1, column: 1 };
        // Most often the key is there, misspelt: point at it.
        const typo = Object.keys(fm.data).find((k) => !KNOWN_KEYS.includes(k) && closest(k, KNOWN_KEYS) === path[0]);
        if (typo) {
          explained.add(typo);
          at = { ...fm.locate([typo]), column: 1 };
          message = `missing required key \`${path[0]}\` (\`${typo}\` on this line looks like it)`;
          fix = `rename \`${typo}\` to \`${path[0]}\``;
        }
      }
      // A union's nested issues repeat the same fact: report one message per position.
      if (problems.some((p) => p.line === at.line && p.message === message)) continue;
      problems.push({ ...at, message: message!, fix, level: 'error' });
    }
  }
  for (const key of Object.keys(fm.data)) {
    if (!KNOWN_KEYS.includes(key) && !explained.has(key)) {
      problems.push({
        ...fm.locate([key]),
        column: 1,
        message: `unknown key \`${key}\` (ignored)${didYouMean(key, KNOWN_KEYS)}`,
        fix: closest(key, KNOWN_KEYS)
          ? `rename it to \`${closest(key, KNOWN_KEYS)}\`, or move it under \`metadata:\``
          : `remove it, or move it under \`metadata:\`; known keys: ${KNOWN_KEYS.join(', ')}`,
        level: 'warning',
      });
    }
  }
  const match = fm.data.match;
  if (match && typeof match === 'object' && !Array.isArray(match)) {
    for (const key of Object.keys(match)) {
      if (!MATCH_KEYS.includes(key))
        problems.push({
          ...fm.locate(['match', key]),
          message: `unknown key \`match.${key}\` (ignored)${didYouMean(key, MATCH_KEYS)}`,
          fix: 'use `match.tools` and/or `match.files`',
          level: 'warning',
        });
    }
  }
  if (!result.success) return { problems };
  const d = result.output;
  const trigger = d.trigger;
  const tools = list(d.match?.tools);
  const files = list(d.match?.files);
  if (tools && !TOOL_TRIGGERS.includes(trigger)) {
    problems.push({
      ...fm.locate(['match', 'tools']),
      message: `\`match.tools\` has no effect on ${trigger} (its events carry no tool)`,
      fix: `remove it, or use a tool trigger (${TOOL_TRIGGERS.join(', ')})`,
      level: 'warning',
    });
  }
  if (files && !FILE_TRIGGERS.includes(trigger)) {
    problems.push({
      ...fm.locate(['match', 'files']),
      message: `\`match.files\` has no effect on ${trigger} (its events carry no files)`,
      fix: `remove it, or use ${FILE_TRIGGERS.join(', ')}`,
      level: 'warning',
    });
  }
  if (d.triggerMatcher !== undefined && !MATCHER_TRIGGERS.includes(trigger)) {
    problems.push({
      ...fm.locate(['triggerMatcher']),
      message: `\`triggerMatcher\` has no effect on ${trigger}`,
      fix: `remove it; it applies to ${MATCHER_TRIGGERS.join(', ')}`,
      level: 'warning',
    });
  }
  const spec: ValidatorSpec = {
    name: d.name,
    description: d.description,
    severity: d.severity,
    trigger,
    match: { ...(tools ? { tools } : {}), ...(files ? { files } : {}) },
    tags: list(d.tags) ?? [],
    once: d.once ?? false,
    timeout: d.timeout ?? DEFAULT_TIMEOUT,
  };
  if (d.triggerMatcher !== undefined) spec.triggerMatcher = d.triggerMatcher;
  if (d.license !== undefined) spec.license = d.license;
  if (d.compatibility !== undefined) spec.compatibility = d.compatibility;
  if (d.metadata !== undefined) spec.metadata = d.metadata;
  if (d.script !== undefined) spec.script = d.script;
  if (d.model !== undefined) spec.model = d.model;
  if (d.batch === false) spec.batch = false;
  return { spec, problems };
}

const OPTIONAL = new Set(KNOWN_KEYS.filter((k) => !(k in REQUIRED_FIX)));

/**
 * `tags:` or `match:\n  files:` with nothing after them are YAML nulls: treated as absent, with a warning, rather than
 * failing the validator over an empty optional key (scaffolds and half-edited files have them).
 */
function withoutEmpty(fm: Pick<Frontmatter, 'data' | 'locate'>, problems: Problem[]): Record<string, unknown> {
  const data: Record<string, unknown> = { ...fm.data };
  const empty = (path: string[]) =>
    problems.push({
      ...fm.locate(path),
      message: `\`${path.join('.')}\` is empty (ignored)`,
      fix: `give it a value or remove the line`,
      level: 'warning',
    });
  for (const key of Object.keys(data)) {
    if (data[key] === null && OPTIONAL.has(key)) {
      delete data[key];
      empty([key]);
    }
  }
  const match = data.match;
  if (match && typeof match === 'object' && !Array.isArray(match)) {
    const m: Record<string, unknown> = { ...(match as Record<string, unknown>) };
    for (const key of MATCH_KEYS) {
      // An empty list would silently mean "every tool / every file": say so.
      if (key in m && (m[key] === null || (Array.isArray(m[key]) && (m[key] as unknown[]).length === 0))) {
        delete m[key];
        empty(['match', key]);
      }
    }
    data.match = m;
  }
  return data;
}

/** Name and trigger when readable, so a load error can still be scoped to the events it concerns. */
export function readableIdentity(data: Record<string, unknown>): { name?: string; trigger?: ValidatorSpec['trigger'] } {
  const out: { name?: string; trigger?: ValidatorSpec['trigger'] } = {};
  if (typeof data.name === 'string' && data.name) out.name = data.name;
  if (typeof data.trigger === 'string' && (TRIGGERS as readonly string[]).includes(data.trigger))
    out.trigger = data.trigger as ValidatorSpec['trigger'];
  return out;
}
