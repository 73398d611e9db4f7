import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AvpError } from '../errors.ts';
import { RegistryClient } from './api.ts';
import { inspectArchive, integrityOf, packDirectory, treeIntegrity, type ArchiveInfo } from './archive.ts';
import type { ProgressFn } from './http.ts';
import type { LockEntry, SourceKind } from './lockfile.ts';
import { git as runGit } from '../os/git.ts';

/** A package fetched and checked in memory, ready to be staged. */
export interface Fetched {
  info: ArchiveInfo;
  name: string;
  version: string;
  source: SourceKind;
  resolved: string;
  integrity: string;
  registry?: string;
  /** avp's registry: the version's test cases and the publisher's report of them (shown by `avp add`). */
  tests?: unknown;
  /** Set when avp's embedded catalog stood in for a registry name the registry could not serve: which and why. */
  fallback?: { registry: string; reason: string };
}

/** Local directory: packed with the publish rules (so it installs exactly what `avp publish` would upload). */
export async function fetchDir(path: string): Promise<Fetched> {
  const packed = await packDirectory(path);
  const info = await inspectArchive(packed.bytes);
  return {
    info,
    name: info.manifest.name,
    version: info.manifest.version,
    source: 'file',
    resolved: `file:${path}`,
    integrity: treeIntegrity(info.files),
  };
}

async function git(args: string[], cwd?: string): Promise<string> {
  // Never wait for a password prompt: a private repository must fail with a message instead of hanging.
  const r = await runGit(args, { cwd, noPrompt: true, stderr: true });
  if (!r) throw Object.assign(new Error('git is not installed'), { code: 'ENOENT' });
  const { code, stderr: err } = r;
  const out = r.stdout.toString();
  if (code !== 0) throw new Error(err.trim().split('\n').slice(-2).join(' ') || `git ${args[0]} exited ${code}`);
  return out.trim();
}

/**
 * Git: a shallow fetch of one ref (default HEAD) into a temporary directory, then the checkout is packed like a
 * local directory. Recorded as `git+<url>#<commit sha>` so `avp install` gets the same commit again.
 */
export async function fetchGit(url: string, ref?: string): Promise<Fetched> {
  const dir = mkdtempSync(join(tmpdir(), 'avp-git-'));
  try {
    let sha: string;
    try {
      await git(['init', '-q', dir]);
      await git(['fetch', '-q', '--depth', '1', url, ref ?? 'HEAD'], dir);
      await git(['-c', 'advice.detachedHead=false', 'checkout', '-q', 'FETCH_HEAD'], dir);
      sha = await git(['rev-parse', 'HEAD'], dir);
    } catch (e) {
      const missingGit = (e as NodeJS.ErrnoException).code === 'ENOENT';
      throw new AvpError(
        'git-fetch-failed',
        `could not fetch ${url}${ref ? `#${ref}` : ''}: ${missingGit ? 'git is not installed' : (e as Error).message}`,
        {
          fix: missingGit
            ? 'install git'
            : 'check the URL and the ref (branch, tag or commit), and that you can clone it with git',
        },
      );
    }
    if (ref && /^[0-9a-f]{7,40}$/i.test(ref) && !sha.startsWith(ref.toLowerCase())) {
      throw new AvpError('git-ref-mismatch', `${url}#${ref} checked out ${sha}`, { fix: 'pass the full commit sha' });
    }
    const fetched = await fetchDir(dir);
    return { ...fetched, source: 'git', resolved: `git+${url}#${sha}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An https zip / tarball URL: the bytes' integrity is recorded (and checked against `expected` when given). */
export async function fetchUrl(url: string, opts: { expected?: string; progress?: ProgressFn } = {}): Promise<Fetched> {
  const client = new RegistryClient(new URL(url).origin);
  const bytes = await client.download(url, opts.progress);
  const integrity = integrityOf(bytes);
  if (opts.expected && opts.expected !== integrity) throw integrityMismatch(url, opts.expected, integrity);
  const info = await inspectArchive(bytes);
  return { info, name: info.manifest.name, version: info.manifest.version, source: 'url', resolved: url, integrity };
}

/** A registry version: download, verify integrity (refuse when missing or wrong), inspect. */
export async function fetchRegistryVersion(
  client: RegistryClient,
  v: {
    name: string;
    version: string;
    downloadUrl: string;
    integrity?: string | null;
    type?: string | null;
    tests?: unknown;
  },
  opts: { progress?: ProgressFn; expected?: string } = {},
): Promise<Fetched> {
  // The registry already says what it is: refuse other package types before downloading (the archive is checked too).
  // The reference accepts any casing of the type (`"Validator"`); so does avp.
  if (v.type && v.type.toLowerCase() !== 'validator') {
    throw new AvpError(
      'archive-not-validator',
      `${v.name}@${v.version} is a ${v.type}, not a validator; avp installs validators only`,
      {
        fix: `install ${v.type}s with the tool made for them; find validators with \`avp search\``,
      },
    );
  }
  if (!v.integrity || typeof v.integrity !== 'string') {
    throw new AvpError(
      'integrity-missing',
      `${client.base} sent no integrity for ${v.name}@${v.version}: the registry served it without one, and avp ` +
        'requires a sha512 integrity for every registry download (it never installs an unverifiable one)',
      {
        fix:
          `ask the operator of ${client.base} to publish an integrity for every version ` +
          '(the reference client skips the check; avp never does)',
      },
    );
  }
  if (!/^sha512-[A-Za-z0-9+/]+={0,2}$/.test(v.integrity)) {
    throw new AvpError(
      'integrity-unsupported',
      `${client.base} sent integrity "${v.integrity.slice(0, 20)}…" for ${v.name}@${v.version}; avp accepts sha512 only`,
      {
        fix: 'the registry must publish sha512 integrity values',
      },
    );
  }
  if (opts.expected && opts.expected !== v.integrity)
    throw integrityMismatch(`${v.name}@${v.version}`, opts.expected, v.integrity);
  if (!v.downloadUrl)
    throw new AvpError('registry-bad-response', `${client.base} sent no downloadUrl for ${v.name}@${v.version}`, {
      fix: 'report it to the registry operator',
    });
  const bytes = await client.download(new URL(v.downloadUrl, client.base).toString(), opts.progress);
  const actual = integrityOf(bytes);
  if (actual !== v.integrity) throw integrityMismatch(v.downloadUrl, v.integrity, actual);
  const info = await inspectArchive(bytes, { registryVersion: v.version });
  // `owner/repo` registry names hold a package named `repo` (package names have no `/`).
  if (info.manifest.name !== v.name.split('/').pop()) {
    throw new AvpError('package-name-mismatch', `${v.downloadUrl} holds "${info.manifest.name}", not "${v.name}"`, {
      fix: 'the registry served the wrong archive; report it to its operator',
    });
  }
  if (info.manifest.version !== v.version) {
    throw new AvpError(
      'package-version-mismatch',
      `${v.downloadUrl} holds version ${info.manifest.version}, but the registry says ${v.version}`,
      {
        fix: 'the registry served the wrong archive; report it to its operator',
      },
    );
  }
  return {
    info,
    name: info.manifest.name,
    version: v.version,
    source: 'registry',
    resolved: v.downloadUrl,
    integrity: actual,
    registry: client.base,
    ...(v.tests !== undefined ? { tests: v.tests } : {}),
  };
}

/** The refusal for bytes or trees that do not hash to what was expected (never falls back to anything). */
export function integrityMismatch(what: string, expected: string, actual: string): AvpError {
  return new AvpError(
    'integrity-mismatch',
    `integrity check failed for ${what}: expected ${expected.slice(0, 27)}…, got ${actual.slice(0, 27)}…`,
    {
      fix: 'nothing was installed; the download was altered or the registry changed a published version — report it, do not work around it',
    },
  );
}

/** What a lock entry needs from a fetched package. */
export function lockEntryOf(f: Fetched, requested?: string): LockEntry {
  const entry: LockEntry = {
    version: f.version,
    resolved: f.resolved,
    integrity: f.integrity,
    installedAt: new Date().toISOString(),
    source: f.source,
    treeIntegrity: treeIntegrity(f.info.files),
  };
  if (f.registry) entry.registry = f.registry;
  if (f.fallback) entry.fallbackFrom = f.fallback.registry;
  if (requested) entry.requested = requested;
  return entry;
}
