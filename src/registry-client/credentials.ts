import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { AvpError } from '../errors.ts';
import { avpHome } from '../paths.ts';
import { RegistryClient } from './api.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';

/** The credentials file: `{registry, token, email, name}`, mode 0600. */
export interface Credentials {
  registry: string;
  token: string;
  email?: string;
  name?: string;
}

/** `~/.avp/credentials`, or AVP_CREDENTIALS_PATH. */
function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.AVP_CREDENTIALS_PATH || join(avpHome(env), 'credentials');
}

/** The stored credentials, or undefined when not logged in (a broken file is an error naming it). */
export function readCredentials(env: NodeJS.ProcessEnv = process.env): Credentials | undefined {
  const path = credentialsPath(env);
  if (!existsSync(path)) return undefined;
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<Credentials>;
    return typeof data.token === 'string' && data.token ? (data as Credentials) : undefined;
  } catch {
    throw new AvpError('credentials-invalid', `${path} is not valid JSON`, {
      fix: 'run `avp logout` then `avp login` again',
      file: path,
    });
  }
}

/** Writes the file atomically with mode 0600 from the first byte (the token never sits in a world-readable file). */
export function writeCredentials(creds: Credentials, env: NodeJS.ProcessEnv = process.env): string {
  const path = credentialsPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomic(path, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600, exactMode: true });
  return path;
}

/** Deletes the credentials file; false when there was none. */
export function deleteCredentials(env: NodeJS.ProcessEnv = process.env): boolean {
  const path = credentialsPath(env);
  if (!existsSync(path)) return false;
  rmSync(path, { force: true });
  return true;
}

/** Where a token came from; `env` (AVP_TOKEN, MIRDAN_TOKEN) and the reference's file cannot be logged out of. */
export type TokenSource = 'env' | 'file' | 'reference-file';

/**
 * The reference client's credentials file, written by its `login`: MIRDAN_CREDENTIALS_PATH, else
 * `~/.mirdan/credentials`, the same JSON `{registry, token, email, name}`. Read only, and read as the reference reads
 * it: a file that does not parse is no login (it is not avp's file to complain about).
 */
function readReferenceCredentials(env: NodeJS.ProcessEnv): (Credentials & { path: string }) | undefined {
  const path = env.MIRDAN_CREDENTIALS_PATH || join(env.HOME || homedir(), '.mirdan', 'credentials');
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<Credentials>;
    if (typeof data.token !== 'string' || !data.token || typeof data.registry !== 'string') return undefined;
    return { ...(data as Credentials), path };
  } catch {
    return undefined;
  }
}

/**
 * The token for a registry: AVP_TOKEN wins; else the credentials file's token when it was issued by that registry
 * (a token for one registry is never sent to another); else MIRDAN_TOKEN, the reference client's variable, but only
 * for the registry that token belongs to (MIRDAN_REGISTRY_URL, else the public registry).
 */
export function tokenFor(
  registry: string,
  env: NodeJS.ProcessEnv = process.env,
): { token: string; source: TokenSource; variable?: string; file?: string } | undefined {
  if (env.AVP_TOKEN) return { token: env.AVP_TOKEN, source: 'env', variable: 'AVP_TOKEN' };
  const creds = readCredentials(env);
  if (creds && sameRegistry(creds.registry, registry)) return { token: creds.token, source: 'file' };
  if (env.MIRDAN_TOKEN && sameRegistry(env.MIRDAN_REGISTRY_URL || DEFAULT_REGISTRY, registry))
    return { token: env.MIRDAN_TOKEN, source: 'env', variable: 'MIRDAN_TOKEN' };
  // Last: a login made with the reference client, for the registry its file names and no other.
  const ref = readReferenceCredentials(env);
  if (ref && sameRegistry(ref.registry, registry))
    return { token: ref.token, source: 'reference-file', file: ref.path };
  return undefined;
}

/** The public registry (config/config.ts's default, repeated here so reading a token never loads the config code). */
const DEFAULT_REGISTRY = 'https://registry.mirdan.ai';

/** Same registry base, ignoring trailing slashes. */
function sameRegistry(a: string | undefined, b: string): boolean {
  return (a ?? '').replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/**
 * The registry base: `--registry` > AVP_REGISTRY_URL > config `registry.url` > MIRDAN_REGISTRY_URL (the reference
 * client's variable) > the public registry. Config is only loaded when neither flag nor env says it (c12 is not
 * cheap); MIRDAN_REGISTRY_URL applies only where avp's own settings leave the default.
 */
export async function registryUrl(
  opts: { registry?: string; cwd?: string; projectRoot?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const env = opts.env ?? process.env;
  if (opts.registry) return opts.registry.replace(/\/+$/, '');
  if (env.AVP_REGISTRY_URL) return env.AVP_REGISTRY_URL.replace(/\/+$/, '');
  const { loadConfig } = await import('../config/config.ts');
  const config = await loadConfig({ cwd: opts.cwd ?? process.cwd(), projectRoot: opts.projectRoot, env });
  const url = config.registry.url.replace(/\/+$/, '');
  if (env.MIRDAN_REGISTRY_URL && url === DEFAULT_REGISTRY) return env.MIRDAN_REGISTRY_URL.replace(/\/+$/, '');
  return url;
}

/** A client for the resolved registry carrying the right token (if any). */
export async function clientFor(
  opts: { registry?: string; cwd?: string; projectRoot?: string; env?: NodeJS.ProcessEnv; requireToken?: boolean } = {},
): Promise<RegistryClient> {
  const env = opts.env ?? process.env;
  const base = await registryUrl(opts);
  const token = tokenFor(base, env);
  if (opts.requireToken && !token) throw notLoggedIn(base);
  return new RegistryClient(base, { token: token?.token });
}

/** The error for a command that needs a token for `base` and has none. */
export function notLoggedIn(base: string): AvpError {
  return new AvpError('not-logged-in', `not logged in to ${base}`, {
    fix: `run \`avp login --registry ${base}\` or set AVP_TOKEN`,
  });
}
