/**
 * Managed config: the machine's or organisation's policy, written by an administrator where users and agents cannot
 * write (`/etc/avp/managed.json`, `/Library/Application Support/avp/managed.json`, `%ProgramData%\avp\managed.json`).
 * It is read before the project's config and cannot be overridden by it: it names validators that must be installed
 * and may not be disabled, and whether the kill switch may turn avp off. It is the admin's file, not part of the
 * accepted state (no `avp accept`): it is read live on every call.
 *
 * On the hook path: one `stat` per location when there is no managed file; plain JSON (no c12, no valibot) else.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { AvpConfig } from './types.ts';
import { systemManagedConfigPath } from './managed-path.ts';
import { closest } from '../did-you-mean.ts';
import { AvpError } from '../errors.ts';
import type { LoadError, Validator } from '../validator/types.ts';

export { systemManagedConfigPath } from './managed-path.ts';

/** What the managed files ask for, merged: any file requiring a validator or forbidding disabling wins. */
export interface ManagedPolicy {
  /** The managed files that exist (the system location first). */
  files: string[];
  /** Validator names (or ids) that must be installed and run; config cannot disable them or lower their severity. */
  required: string[];
  /** The kill switch (`AVP_DISABLE`, `"disabled": true`) is refused. */
  forbidDisabling: boolean;
  /**
   * A validators folder only the administrator can write (`avp init --managed`: `/etc/avp/validators`): hook mode
   * reads it above the project's and the user's validators, without the user's parse cache.
   */
  validatorsDir?: string;
}

const KEYS = ['$schema', 'requiredValidators', 'forbidDisabling', 'validatorsDir'];

/**
 * Every managed file avp reads: the system location, plus `AVP_MANAGED_CONFIG` when set. The variable adds a file
 * (tests, a scratch policy); it never hides the system one, so a user cannot unset a machine's policy with it.
 */
export function managedConfigPaths(env: NodeJS.ProcessEnv = process.env): string[] {
  const paths = [systemManagedConfigPath(process.platform, env)];
  if (env.AVP_MANAGED_CONFIG) paths.push(resolve(env.AVP_MANAGED_CONFIG));
  return [...new Set(paths)];
}

function isFile(path: string): boolean {
  try {
    // No file is the usual case (no policy installed): asked without a thrown ENOENT, which costs ~10× the stat.
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

/** 1-based line and column of a character offset. */
function lineCol(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** The line of `"key"` in the file, for errors about a key. */
function keyLine(text: string, key: string): number | undefined {
  const at = text.indexOf(JSON.stringify(key));
  return at < 0 ? undefined : lineCol(text, at).line;
}

const ASK = 'the managed config belongs to your administrator: ask them to fix it';

/** Reads and checks one managed file. Throws `AvpError('managed-config')` naming the file, the line and the fix. */
function readManagedFile(file: string): { required: string[]; forbidDisabling?: boolean; validatorsDir?: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new AvpError('managed-config', `cannot read the managed config: ${(e as Error).message}`, {
      file,
      fix: `make it readable by every user (${ASK})`,
    });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const pos = /position (\d+)/.exec((e as Error).message);
    const where = pos ? lineCol(text, Number(pos[1])) : {};
    throw new AvpError('managed-config', `the managed config is not valid JSON: ${(e as Error).message}`, {
      file,
      ...where,
      fix: `make it a JSON object such as {"requiredValidators": ["no-secrets"]} (${ASK})`,
    });
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AvpError('managed-config', 'the managed config must be a JSON object', {
      file,
      fix: `write {"requiredValidators": [...], "forbidDisabling": true} (${ASK})`,
    });
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (KEYS.includes(key)) continue;
    const near = closest(key, KEYS);
    throw new AvpError(
      'managed-config',
      `unknown managed config key "${key}"${near ? ` (did you mean ${near}?)` : ''}`,
      {
        file,
        line: keyLine(text, key),
        fix: near ? `rename it to ${near}` : `remove it; the keys are requiredValidators and forbidDisabling`,
      },
    );
  }
  const req = obj.requiredValidators ?? [];
  if (!Array.isArray(req) || req.some((n) => typeof n !== 'string' || !n.trim())) {
    throw new AvpError('managed-config', '"requiredValidators" must be a list of validator names', {
      file,
      line: keyLine(text, 'requiredValidators'),
      fix: 'write it as ["no-secrets", "acme/rules"]',
    });
  }
  if (obj.forbidDisabling !== undefined && typeof obj.forbidDisabling !== 'boolean') {
    throw new AvpError('managed-config', '"forbidDisabling" must be true or false', {
      file,
      line: keyLine(text, 'forbidDisabling'),
      fix: 'write "forbidDisabling": true (or remove the key)',
    });
  }
  if (obj.validatorsDir !== undefined && (typeof obj.validatorsDir !== 'string' || !isAbsolute(obj.validatorsDir))) {
    throw new AvpError('managed-config', '"validatorsDir" must be an absolute path', {
      file,
      line: keyLine(text, 'validatorsDir'),
      fix: 'write "validatorsDir": "/etc/avp/validators" (a folder only the administrator can write)',
    });
  }
  return {
    required: (req as string[]).map((n) => n.trim()),
    forbidDisabling: obj.forbidDisabling as boolean,
    ...(typeof obj.validatorsDir === 'string' ? { validatorsDir: obj.validatorsDir } : {}),
  };
}

/**
 * The managed policy in force, or undefined when no managed file exists. `forbidDisabling` defaults to true as soon
 * as a file requires a validator: requiring one that the kill switch can turn off would require nothing.
 */
export function readManagedPolicy(env: NodeJS.ProcessEnv = process.env): ManagedPolicy | undefined {
  const files = managedConfigPaths(env).filter(isFile);
  if (!files.length) return undefined;
  const policy: ManagedPolicy = { files, required: [], forbidDisabling: false };
  for (const file of files) {
    const one = readManagedFile(file);
    policy.required.push(...one.required);
    if (one.forbidDisabling ?? one.required.length > 0) policy.forbidDisabling = true;
    policy.validatorsDir ??= one.validatorsDir;
  }
  policy.required = [...new Set(policy.required)];
  return policy;
}

/**
 * True when a managed policy forbids the kill switch. A managed file that cannot be read counts as forbidding
 * it (fail closed): the error itself is reported by `loadConfig`.
 */
export function killSwitchForbidden(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    return readManagedPolicy(env)?.forbidDisabling ?? false;
  } catch {
    return true;
  }
}

const names = (files: string[]) => files.join(', ');

/**
 * `config` with the policy enforced: the kill switch off when forbidden, required validators out of the disabled
 * list and without lowered severities. Every refused setting becomes a note saying which policy refused it.
 */
export function enforcePolicy(config: AvpConfig, policy: ManagedPolicy, env: NodeJS.ProcessEnv): AvpConfig {
  const notes: string[] = [];
  const where = `the managed policy (${names(policy.files)})`;
  const out: AvpConfig = { ...config, severity: { ...config.severity } };
  if (out.disabled && policy.forbidDisabling) {
    const by = env.AVP_DISABLE && env.AVP_DISABLE !== '0' ? 'AVP_DISABLE' : '"disabled": true in the config';
    notes.push(`${by} is ignored: ${where} forbids turning avp off; validators still run`);
    out.disabled = false;
  }
  const required = new Set(policy.required);
  const fromEnv = (env.AVP_DISABLED_VALIDATORS ?? '').split(',').map((s) => s.trim());
  const refused = out.disabledValidators.filter((n) => required.has(n));
  if (refused.length) {
    for (const n of refused) {
      const by = fromEnv.includes(n) ? 'AVP_DISABLED_VALIDATORS' : 'disabledValidators';
      notes.push(`${by} cannot turn off "${n}": ${where} requires it; it still runs`);
    }
    out.disabledValidators = out.disabledValidators.filter((n) => !required.has(n));
  }
  for (const [n, sev] of Object.entries(out.severity)) {
    if (required.has(n) && sev !== 'error') {
      notes.push(`the severity override "${n}": "${sev}" is ignored: ${where} requires it at its own severity`);
      delete out.severity[n];
    }
  }
  const dir = policy.validatorsDir ? { validatorsDir: policy.validatorsDir } : {};
  const forbid = policy.forbidDisabling ? { forbidDisabling: true } : {};
  return { ...out, policy: { files: policy.files, required: policy.required, notes, ...dir, ...forbid } };
}

/** The validators `policy` requires that discovery found neither as a validator nor as a broken one. */
export function missingRequired(
  policy: Pick<ManagedPolicy, 'files' | 'required'>,
  validators: Validator[],
  errors: LoadError[],
): LoadError[] {
  const known = new Set([...validators.flatMap((v) => [v.name, v.id]), ...errors.map((e) => e.name)]);
  return policy.required
    .filter((n) => !known.has(n))
    .map((name) => ({
      source: 'user' as const,
      path: policy.files.join(', '),
      name,
      message: `validator "${name}" is required by the managed policy but is not installed`,
      fix: `install it (avp add ${name} --user), or ask your administrator to change the managed policy`,
    }));
}
