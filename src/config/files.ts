/**
 * The slow half of config loading, imported only when a config file exists: c12 reads `avp.config.*`, rc9 the
 * `.avprc` files (user, then project), plus `$AVP_HOME/config.json`; valibot checks each file on its own so an error
 * names the file and the key at fault.
 */
import { join } from 'node:path';
import { readRegularText } from '../os/read-regular.ts';
import * as v from 'valibot';
import type { AvpConfig } from './types.ts';
import { closest } from '../did-you-mean.ts';
import { AvpError } from '../errors.ts';
import { SEVERITIES } from '../validator/types.ts';
import { avpHome } from '../paths.ts';
import { userRcPath } from '../trust/control-files.ts';

const Backend = v.picklist(['auto', 'claude', 'codex', 'gemini', 'qwen', 'droid', 'anthropic', 'openai', 'command']);
const Int = (min: number) => v.pipe(v.number(), v.integer(), v.minValue(min));
const Names = v.array(v.pipe(v.string(), v.minLength(1)));
const Price = v.pipe(v.number(), v.minValue(0));
/** USD per million tokens: `{ input, output, cacheRead?, cacheWrite? }`. */
const ModelPrice = v.strictObject({
  input: Price,
  output: Price,
  cacheRead: v.optional(Price),
  cacheWrite: v.optional(Price),
});

/** A spend limit: tokens and/or US dollars (at least one, both positive). */
const SpendLimit = v.pipe(
  v.strictObject({ tokens: v.optional(Int(1)), usd: v.optional(v.pipe(v.number(), v.gtValue(0))) }),
  v.check((l) => l.tokens !== undefined || l.usd !== undefined, 'give "tokens", "usd" or both'),
);

/** What a config file may contain. Unknown keys are errors: a typo must not silently turn a setting off. */
const FileConfig = v.strictObject({
  $schema: v.optional(v.string()),
  /** `true` = kill switch; a list = validators never run (same as `disabledValidators`). */
  disabled: v.optional(v.union([v.boolean(), Names])),
  disabledValidators: v.optional(Names),
  severity: v.optional(v.record(v.string(), v.picklist(SEVERITIES))),
  concurrency: v.optional(Int(1)),
  budgetMs: v.optional(Int(1)),
  maxStopBlocks: v.optional(Int(0)),
  softValidatorErrors: v.optional(v.boolean()),
  trackMaxFiles: v.optional(Int(1)),
  judge: v.optional(
    v.strictObject({
      backend: v.optional(Backend),
      model: v.optional(v.string()),
      command: v.optional(v.string()),
      validators: v.optional(v.record(v.string(), Backend)),
      concurrency: v.optional(Int(1)),
      batch: v.optional(v.boolean()),
      skipLlmWhenBlocked: v.optional(v.boolean()),
    }),
  ),
  budgets: v.optional(
    v.strictObject({
      session: v.optional(SpendLimit),
      day: v.optional(SpendLimit),
      policy: v.optional(v.picklist(['block', 'warn'])),
    }),
  ),
  cache: v.optional(v.strictObject({ enabled: v.optional(v.boolean()), maxBytes: v.optional(Int(0)) })),
  registry: v.optional(v.strictObject({ url: v.optional(v.pipe(v.string(), v.url())) })),
  prices: v.optional(v.record(v.pipe(v.string(), v.minLength(1)), ModelPrice)),
});
type FileConfig = v.InferOutput<typeof FileConfig>;

/** The keys a config file may hold at `path` (`[]` = the top level, `['judge']` = inside `judge`). */
function keysAt(path: string[]): string[] {
  let entries: Record<string, unknown> = FileConfig.entries;
  for (const key of path) {
    const schema = entries[key] as
      | { wrapped?: { entries?: Record<string, unknown>; pipe?: Array<{ entries?: Record<string, unknown> }> } }
      | undefined;
    entries = schema?.wrapped?.entries ?? schema?.wrapped?.pipe?.[0]?.entries ?? {};
  }
  return Object.keys(entries);
}

/** rc files are flat `key=value` text, so numbers and booleans arrive as strings there; accept them. */
function coerceRc(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(coerceRc);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, coerceRc(x)]));
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (typeof value === 'string' && /^\d+(?:\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function check(raw: unknown, file: string): FileConfig {
  const result = v.safeParse(FileConfig, raw);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const key = v.getDotPath(issue) ?? '(top level)';
  const help = 'see docs/hook-mode.md#configuration for the keys and their types';
  if (issue.type === 'strict_object' && issue.path?.length) {
    // An unknown key is most often a typo of a known one: name the one it is closest to.
    const parent = issue.path.slice(0, -1).map((p) => String(p.key));
    const siblings = keysAt(parent);
    const unknown = String(issue.path.at(-1)?.key);
    const near = closest(unknown, siblings);
    throw new AvpError(
      'config-invalid',
      `unknown config key "${key}"${near ? ` (did you mean ${[...parent, near].join('.')}?)` : ''}`,
      {
        file,
        fix: near
          ? `rename it to ${near}`
          : `remove it; the keys here are ${siblings.join(', ')} (${help.replace('see ', '')})`,
      },
    );
  }
  throw new AvpError('config-invalid', `invalid config key "${key}": ${issue.message}`, {
    file,
    fix: `${help} (or remove the key)`,
  });
}

function toPartial(f: FileConfig): Partial<AvpConfig> {
  const out: Partial<AvpConfig> = {};
  const disabledList = [...(Array.isArray(f.disabled) ? f.disabled : []), ...(f.disabledValidators ?? [])];
  if (typeof f.disabled === 'boolean') out.disabled = f.disabled;
  if (disabledList.length) out.disabledValidators = disabledList;
  if (f.severity) out.severity = f.severity;
  if (f.concurrency !== undefined) out.concurrency = f.concurrency;
  if (f.budgetMs !== undefined) out.budgetMs = f.budgetMs;
  if (f.maxStopBlocks !== undefined) out.maxStopBlocks = f.maxStopBlocks;
  if (f.softValidatorErrors !== undefined) out.softValidatorErrors = f.softValidatorErrors;
  if (f.trackMaxFiles !== undefined) out.trackMaxFiles = f.trackMaxFiles;
  if (f.judge)
    out.judge = Object.fromEntries(Object.entries(f.judge).filter(([, x]) => x !== undefined)) as AvpConfig['judge'];
  if (f.cache)
    out.cache = Object.fromEntries(Object.entries(f.cache).filter(([, x]) => x !== undefined)) as AvpConfig['cache'];
  if (f.registry?.url) out.registry = { url: f.registry.url };
  if (f.prices) out.prices = f.prices;
  if (f.budgets)
    out.budgets = Object.fromEntries(
      Object.entries(f.budgets).filter(([, x]) => x !== undefined),
    ) as unknown as AvpConfig['budgets'];
  return out;
}

/** Shallow-merges layers, lowest precedence first; nested objects merged one level, lists concatenated for disables. */
function layer(into: Partial<AvpConfig>, over: Partial<AvpConfig>): Partial<AvpConfig> {
  const out: any = { ...into, ...over };
  for (const k of ['judge', 'cache', 'registry', 'severity', 'prices', 'budgets'] as const)
    if (into[k] || over[k]) out[k] = { ...into[k], ...over[k] };
  if (into.disabledValidators || over.disabledValidators) {
    out.disabledValidators = [...(into.disabledValidators ?? []), ...(over.disabledValidators ?? [])];
  }
  return out;
}

/** Reads an rc file (flat `key=value` lines, dotted keys nest); a missing file is empty. */
async function readRc(path: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = readRegularText(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AvpError('config-invalid', `cannot read config: ${(e as Error).message}`, {
      file: path,
      fix: 'make it readable (or remove it)',
    });
  }
  const { parse } = await import('rc9');
  return parse(text) as Record<string, unknown>;
}

/**
 * Reads and validates every config file of the project (in `root`) and of the user (`user`); returns the merged
 * partial config. Precedence, lowest first: `$AVP_HOME/config.json`, the user's `.avprc`, the project's `.avprc`,
 * `avp.config.*` / `.config/avp.*`. Only these local files are read: c12's remote `extends` and its workspace-level
 * rc are off, so what avp runs on is exactly the files its accepted state lists.
 */
export async function loadConfigFiles(
  root: string,
  env: NodeJS.ProcessEnv,
  user: { json: string; rc: string } = { json: join(avpHome(env), 'config.json'), rc: userRcPath(env) },
): Promise<Partial<AvpConfig>> {
  let merged: Partial<AvpConfig> = {};
  try {
    merged = toPartial(check(JSON.parse(readRegularText(user.json)), user.json));
  } catch (e) {
    if (e instanceof AvpError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new AvpError('config-invalid', `cannot read config: ${(e as Error).message}`, {
        file: user.json,
        fix: 'make it valid JSON',
      });
    }
  }
  for (const rc of [user.rc, join(root, '.avprc')]) {
    const raw = await readRc(rc);
    if (raw) merged = layer(merged, toPartial(check(coerceRc(raw), rc)));
  }
  const { loadConfig } = await import('c12');
  let result: Awaited<ReturnType<typeof loadConfig>>;
  try {
    result = await loadConfig({
      name: 'avp',
      cwd: root,
      rcFile: false,
      globalRc: false,
      extend: false,
      dotenv: false,
      packageJson: false,
      envName: false,
    });
  } catch (e) {
    throw new AvpError('config-invalid', `cannot load the avp config: ${(e as Error).message}`, {
      file: root,
      fix: 'fix the syntax of avp.config.* / .config/avp.* (or remove the file)',
    });
  }
  // c12 lists layers highest precedence first: apply them in reverse.
  for (const l of [...(result.layers ?? [])].reverse()) {
    // The main layer names the unresolved 'avp.config'; c12 puts the resolved path on the result.
    const file =
      l.configFile === 'avp.config' && result.configFile ? result.configFile : (l.configFile ?? 'avp config');
    merged = layer(merged, toPartial(check(l.config, file)));
  }
  return merged;
}
