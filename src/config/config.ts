/**
 * avp's configuration: defaults < config files < environment < overrides (flags).
 *
 * The hook runs on every tool call and c12 costs ~65 ms to import, so when no config file exists (the common case)
 * the files are only looked up with two `readdir`s and a `stat`, and neither c12 nor valibot is loaded.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { enforcePolicy, readManagedPolicy } from './managed.ts';
import type { AvpConfig, BackendName } from './types.ts';
import { AvpError } from '../errors.ts';
import type { Severity } from '../validator/types.ts';
import { avpHome, findProjectRoot } from '../paths.ts';
import { projectConfigNames, userRcPath } from '../trust/control-files.ts';

export type { AvpConfig } from './types.ts';

/** The default registry (the AVP ecosystem's public registry). */
export const DEFAULT_REGISTRY_URL = 'https://registry.mirdan.ai';

/**
 * Defaults. `budgetMs` (90 s) ends well before the hook `timeout` that `avp init` writes (120 s) and after a single
 * validator's default timeout (60 s), so avp always answers itself instead of being cancelled — which Claude Code
 * would treat as a pass.
 */
export function defaultConfig(): AvpConfig {
  return {
    disabled: false,
    disabledValidators: [],
    severity: {},
    concurrency: 8,
    budgetMs: 90_000,
    maxStopBlocks: 3,
    softValidatorErrors: false,
    judge: { backend: 'auto', validators: {}, concurrency: 8, batch: true, skipLlmWhenBlocked: false },
    budgets: { session: {}, day: {}, policy: 'block' },
    cache: { enabled: true, maxBytes: 64 * 1024 * 1024 },
    registry: { url: DEFAULT_REGISTRY_URL },
    trackMaxFiles: 20_000,
    prices: defaultPrices(),
  };
}

/**
 * The list prices (USD per million tokens) of the default models and their closest siblings, as published by
 * Anthropic and OpenAI when this table was written; `prices` in a config file overrides or adds entries.
 */
export function defaultPrices(): AvpConfig['prices'] {
  return {
    'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
    'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
    'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  };
}

/** The user's config files: `$AVP_HOME/config.json` and `.avprc` in `$XDG_CONFIG_HOME` (else the home folder). */
export interface UserConfigFiles {
  json: string;
  rc: string;
}

export function userConfigFiles(env: NodeJS.ProcessEnv): UserConfigFiles {
  return { json: join(avpHome(env), 'config.json'), rc: userRcPath(env) };
}

/**
 * The config files that exist, cheaply: the fast path needs only to know whether there are any. `root` is where the
 * project's files are looked for (the project root, or hook mode's accepted copy of it).
 */
export function configFilesPresent(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
  user: UserConfigFiles = userConfigFiles(env),
): string[] {
  const found = projectConfigNames(root).map((n) => join(root, n));
  if (existsSync(user.rc)) found.push(user.rc);
  if (existsSync(user.json)) found.push(user.json);
  return found;
}

const BACKENDS: readonly BackendName[] = [
  'auto',
  'claude',
  'codex',
  'gemini',
  'qwen',
  'droid',
  'anthropic',
  'openai',
  'command',
];

function envInt(env: NodeJS.ProcessEnv, name: string, min: number): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    throw new AvpError('config-env', `${name}=${JSON.stringify(v)} is not an integer ≥ ${min}`, {
      fix: `set ${name} to a whole number (or unset it)`,
    });
  }
  return n;
}

/** How `AVP_*` switches read: set, and not empty, `0` or `false`. */
export const truthy = (v: string | undefined) =>
  v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';

/** Applies the documented `AVP_*` environment variables (see docs/hook-mode.md) on top of `config`. */
export function applyEnv(config: AvpConfig, env: NodeJS.ProcessEnv): AvpConfig {
  const c: AvpConfig = {
    ...config,
    judge: { ...config.judge },
    cache: { ...config.cache },
    registry: { ...config.registry },
  };
  if (truthy(env.AVP_DISABLE)) c.disabled = true;
  if (env.AVP_DISABLED_VALIDATORS) {
    c.disabledValidators = [
      ...c.disabledValidators,
      ...env.AVP_DISABLED_VALIDATORS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ];
  }
  c.concurrency = envInt(env, 'AVP_CONCURRENCY', 1) ?? c.concurrency;
  c.budgetMs = envInt(env, 'AVP_BUDGET_MS', 1) ?? c.budgetMs;
  c.maxStopBlocks = envInt(env, 'AVP_MAX_STOP_BLOCKS', 0) ?? c.maxStopBlocks;
  c.trackMaxFiles = envInt(env, 'AVP_TRACK_MAX_FILES', 1) ?? c.trackMaxFiles;
  c.judge.concurrency = envInt(env, 'AVP_JUDGE_CONCURRENCY', 1) ?? c.judge.concurrency;
  if (env.AVP_JUDGE) {
    if (!BACKENDS.includes(env.AVP_JUDGE as BackendName)) {
      throw new AvpError('config-env', `AVP_JUDGE=${JSON.stringify(env.AVP_JUDGE)} is not a judge backend`, {
        fix: `use one of ${BACKENDS.join(', ')}`,
      });
    }
    c.judge.backend = env.AVP_JUDGE as BackendName;
  }
  if (env.AVP_MODEL) c.judge.model = env.AVP_MODEL;
  if (env.AVP_JUDGE_COMMAND) c.judge.command = env.AVP_JUDGE_COMMAND;
  if (env.AVP_REGISTRY_URL) c.registry.url = env.AVP_REGISTRY_URL;
  if (truthy(env.AVP_NO_CACHE)) c.cache.enabled = false;
  if (env.AVP_JUDGE_BATCH !== undefined && env.AVP_JUDGE_BATCH !== '') c.judge.batch = truthy(env.AVP_JUDGE_BATCH);
  return c;
}

/** Merges a partial config over a full one (objects one level deep, arrays replaced). */
export function mergeConfig(base: AvpConfig, over: Partial<AvpConfig> | undefined): AvpConfig {
  if (!over) return base;
  const out = { ...base, ...over } as AvpConfig;
  for (const key of ['judge', 'cache', 'registry', 'severity', 'prices', 'budgets'] as const) {
    if (over[key]) (out as any)[key] = { ...(base[key] as object), ...(over[key] as object) };
  }
  return out;
}

/** Canonical form: `judge.command` alone selects the command backend; duplicates removed. */
function finish(c: AvpConfig): AvpConfig {
  if (c.judge.backend === 'auto' && c.judge.command) c.judge = { ...c.judge, backend: 'command' };
  c.disabledValidators = [...new Set(c.disabledValidators)];
  return c;
}

/**
 * Loads the configuration for a project, then enforces the managed policy (config/managed.ts) on it. Throws
 * `AvpError('config-invalid')` naming the file and key when a config file is malformed, `AvpError('managed-config')`
 * for a malformed managed file, and `AvpError('config-env')` for a malformed `AVP_*` variable.
 */
export async function loadConfig(opts: {
  cwd: string;
  projectRoot?: string;
  env?: NodeJS.ProcessEnv;
  overrides?: Partial<AvpConfig>;
  /** Where the project's config files are read (default: the project root; hook mode passes the accepted copy). */
  configRoot?: string;
  /** The user's config files (default: the live ones; hook mode may pass the accepted copies). */
  userConfig?: UserConfigFiles;
}): Promise<AvpConfig> {
  const env = opts.env ?? process.env;
  const root = opts.configRoot ?? opts.projectRoot ?? findProjectRoot(opts.cwd, env);
  const user = opts.userConfig ?? userConfigFiles(env);
  let config = defaultConfig();
  const files = configFilesPresent(root, env, user);
  if (files.length) {
    const { configFingerprints, readConfigCache, writeConfigCache } = await import('./cache.ts');
    let layer = readConfigCache(root, files, env);
    if (!layer) {
      const before = configFingerprints(files);
      const { loadConfigFiles } = await import('./files.ts');
      layer = await loadConfigFiles(root, env, user);
      writeConfigCache(root, files, before, layer, env);
    }
    config = mergeConfig(config, layer);
  }
  const resolved = finish(mergeConfig(applyEnv(config, env), opts.overrides));
  // The machine's policy last, so nothing above can undo it; one stat when there is no managed file.
  const policy = readManagedPolicy(env);
  return policy ? enforcePolicy(resolved, policy, env) : resolved;
}

/** The effective severity of a validator: config override by id, then by name, else the frontmatter's. */
export function effectiveSeverity(config: AvpConfig, id: string, name: string, declared: Severity): Severity {
  return config.severity[id] ?? config.severity[name] ?? declared;
}

/** True when config disables this validator (by id, by name, or — for a RuleSet rule — by the RuleSet's name). */
export function isDisabled(config: AvpConfig, id: string, name: string): boolean {
  return config.disabledValidators.includes(id) || config.disabledValidators.includes(name);
}
