/**
 * The merged config-file layer, cached by the stats of the files it came from, so a hook call in a project with a
 * config file does not load c12 and valibot (~15 ms) every time. Kept in `$AVP_HOME/cache/config/<hash of the
 * root>.json`, outside the project: an agent that could write the cache could make avp believe any config. Data
 * formats only: an `avp.config.ts`/`.js` may import other files whose changes its stats would not show, so code
 * configs are always loaded. Files changed in the last 2 s are
 * not cached (coarse timestamps, see validator/cache.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AvpConfig } from './types.ts';
import { fingerprint, RACY_MS, writeCache } from '../validator/cache.ts';
import { avpHome } from '../paths.ts';
import { VERSION } from '../version.ts';

interface ConfigCache {
  version: string;
  /** path → fingerprint of every config file present when the layer was loaded. */
  deps: Record<string, string>;
  layer: Partial<AvpConfig>;
}

const CODE_CONFIG = /\.[cm]?[jt]s$/;

/** `$AVP_HOME/cache/config/<16 hex of sha256(root)>.json`. */
export function configCachePath(root: string, env: NodeJS.ProcessEnv): string {
  return join(avpHome(env), 'cache', 'config', `${Bun.SHA256.hash(root, 'hex').slice(0, 16)}.json`);
}

/** The cached layer when every present config file is unchanged since it was stored; else undefined. */
export function readConfigCache(root: string, files: string[], env: NodeJS.ProcessEnv): Partial<AvpConfig> | undefined {
  const path = configCachePath(root, env);
  if (files.some((f) => CODE_CONFIG.test(f))) return undefined;
  let data: ConfigCache;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as ConfigCache;
  } catch {
    return undefined;
  }
  if (data?.version !== VERSION || !data.deps || !data.layer) return undefined;
  const paths = Object.keys(data.deps);
  if (paths.length !== files.length || files.some((f) => data.deps[f] !== fingerprint(f).fp)) return undefined;
  return data.layer;
}

/** Stores the layer loaded from `files` (fingerprints taken before loading, so a concurrent edit is a later miss). */
export function writeConfigCache(
  root: string,
  files: string[],
  before: Record<string, string>,
  layer: Partial<AvpConfig>,
  env: NodeJS.ProcessEnv,
): void {
  const path = configCachePath(root, env);
  if (files.some((f) => CODE_CONFIG.test(f))) return;
  const now = Date.now();
  for (const f of files) {
    const { fp, changedAt } = fingerprint(f);
    if (fp !== before[f] || now - changedAt < RACY_MS) return;
  }
  writeCache(path, { version: VERSION, deps: before, layer } satisfies ConfigCache);
}

/** Fingerprints of `files`, taken before they are read. */
export function configFingerprints(files: string[]): Record<string, string> {
  return Object.fromEntries(files.map((f) => [f, fingerprint(f).fp]));
}
