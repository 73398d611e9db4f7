/** Shared set-up for the registry client's integration tests: an isolated HOME / AVP_HOME / project per test. */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir, type AvpRun } from '../support/run-avp.ts';

export interface Sandbox {
  home: string;
  avpHome: string;
  project: string;
  userValidators: string;
  userLock: string;
  projectLock: string;
  avp(args: string[], opts?: { cwd?: string; env?: Record<string, string> }): Promise<AvpRun>;
}

/**
 * A judge that can work as far as `avp add` can see (it refuses LLM validators no judge can evaluate), never asked:
 * these tests install validators, they do not run them. Its URL is a closed port so nothing could leave the machine.
 */
export const INSTALL_ONLY_JUDGE = { ANTHROPIC_API_KEY: 'unused', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };

/** A fresh HOME (with AVP_HOME inside) and a project (a `.git` folder marks its root) with a subfolder to run from. */
export function sandbox(registryUrl?: string): Sandbox {
  const home = tempDir('avp-rc-home-');
  const project = tempDir('avp-rc-project-');
  mkdirSync(join(project, '.git'));
  mkdirSync(join(project, 'src', 'deep'), { recursive: true });
  const avpHome = join(home, '.avp');
  return {
    home,
    avpHome,
    project,
    userValidators: join(avpHome, 'validators'),
    userLock: join(avpHome, 'avp-lock.json'),
    projectLock: join(project, '.avp', 'avp-lock.json'),
    avp(args, opts = {}) {
      return runAvp(args, {
        cwd: opts.cwd ?? join(project, 'src', 'deep'),
        env: {
          HOME: home,
          AVP_HOME: avpHome,
          ...INSTALL_ONLY_JUDGE,
          ...(registryUrl ? { AVP_REGISTRY_URL: registryUrl } : {}),
          ...opts.env,
        },
      });
    },
  };
}

/**
 * A sandbox whose default registry is `url`, set in the user's config file (not by flag or environment): the one
 * kind of registry the embedded catalog may stand in for when it cannot answer.
 */
export function sandboxWithConfiguredRegistry(url: string): Sandbox {
  const sb = sandbox();
  mkdirSync(sb.avpHome, { recursive: true });
  writeFileSync(join(sb.avpHome, 'config.json'), JSON.stringify({ registry: { url } }));
  return sb;
}

/** Every file under a directory with its content (hidden staging and lock files included), for "nothing changed". */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const p = rel ? `${rel}/${name}` : name;
      if (statSync(join(dir, p)).isDirectory()) {
        out[`${p}/`] = '';
        walk(p);
      } else out[p] = readFileSync(join(dir, p), 'utf8');
    }
  };
  walk('');
  return out;
}

/**
 * The state that must not change on a refused install: validators and lockfile. The (empty) staging folder is not
 * part of it; `leftovers` checks separately that nothing was left in it.
 */
export function installedState(avpHome: string): Record<string, string> {
  const all = snapshot(avpHome);
  // Caches are not what is installed: the config cache is written once its file is old enough to trust its stat,
  // which on a slow machine can happen during the command a test compares before and after.
  for (const k of Object.keys(all)) if (k.startsWith('.staging/') || k.startsWith('cache/')) delete all[k];
  return all;
}

/** Whatever a finished avp left behind in a scope's staging folder or as a lock file (must be nothing). */
export function leftovers(scopeHome: string): string[] {
  const staging = join(scopeHome, '.staging');
  const left = existsSync(staging) ? readdirSync(staging) : [];
  return existsSync(join(scopeHome, '.install.lock')) ? [...left, '.install.lock'] : left;
}

export function lock(path: string): {
  packages: Record<
    string,
    { version: string; resolved: string; integrity: string; source: string; requested?: string }
  >;
} {
  return JSON.parse(readFileSync(path, 'utf8'));
}
