import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { AvpError } from '../errors.ts';
import type { RegistryClient } from './api.ts';
import { isPackageName } from './manifest.ts';
import type { PackageVersion } from './types.ts';

/** What `avp add <spec>` asks for. */
export type Spec =
  | { kind: 'registry'; name: string; range: string; raw: string }
  /** `catalog:NAME[@range]`: avp's embedded copy on purpose, never the registry. */
  | { kind: 'catalog'; name: string; range: string; raw: string }
  /** `owner/repo[#ref]`: a qualified registry name first, GitHub when the registry says 404. */
  | { kind: 'shorthand'; name: string; url: string; ref?: string; raw: string }
  | { kind: 'dir'; path: string; raw: string }
  | { kind: 'git'; url: string; ref?: string; raw: string }
  | { kind: 'url'; url: string; raw: string };

const ARCHIVE_URL = /\.(?:zip|tar\.gz|tgz|tar)(?:[?#].*)?$/i;
const GH_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function splitRef(s: string): { base: string; ref?: string } {
  const i = s.indexOf('#');
  return i < 0 ? { base: s } : { base: s.slice(0, i), ref: s.slice(i + 1) || undefined };
}

/** Loopback hosts may be served over plain http (tests, a registry on this machine); everything else must be https. */
function isLoopback(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

/** Parses a spec. Order: `catalog:`, local path, git forms, archive URL, `owner/repo`, `name[@range]`. */
export async function parseSpec(raw: string, cwd: string): Promise<Spec> {
  const spec = raw.trim();
  if (!spec)
    throw new AvpError('spec-empty', 'no validator given', {
      fix: 'avp add <name>[@version|@range] (e.g. avp add no-secrets@^1)',
    });
  if (spec.startsWith('catalog:')) {
    const { name, range } = await nameAndRange(spec.slice('catalog:'.length), spec);
    return { kind: 'catalog', name, range, raw: spec };
  }
  const expanded = spec.startsWith('~/') ? join(homedir(), spec.slice(2)) : spec;
  const looksLocal = /^(?:\.{1,2}(?:\/|$)|\/|~\/)/.test(spec);
  if (
    looksLocal ||
    (!spec.includes(':') && existsSync(resolve(cwd, expanded)) && statSync(resolve(cwd, expanded)).isDirectory())
  ) {
    const path = resolve(cwd, expanded);
    if (!existsSync(path))
      throw new AvpError('spec-path-missing', `${path} does not exist`, {
        fix: 'pass the directory holding VALIDATOR.md',
      });
    return { kind: 'dir', path, raw: spec };
  }
  if (
    /^git@[^:]+:.+/.test(spec) ||
    /^(?:git\+)?(?:ssh|git|file):\/\//.test(spec) ||
    spec.startsWith('git+https://') ||
    spec.startsWith('git+http://')
  ) {
    const { base, ref } = splitRef(spec.replace(/^git\+/, ''));
    return { kind: 'git', url: base, ref, raw: spec };
  }
  if (/^https?:\/\//.test(spec)) {
    const url = new URL(spec);
    if (url.protocol === 'http:' && !isLoopback(url)) {
      throw new AvpError('spec-insecure-url', `${spec} is plain http`, { fix: 'use an https:// URL' });
    }
    if (ARCHIVE_URL.test(url.pathname)) return { kind: 'url', url: spec, raw: spec };
    const { base, ref } = splitRef(spec);
    return { kind: 'git', url: base, ref, raw: spec };
  }
  const { base, ref } = splitRef(spec);
  const parts = base.split('/');
  if (parts.length === 2 && GH_PART.test(parts[0]!) && GH_PART.test(parts[1]!)) {
    return {
      kind: 'shorthand',
      name: base,
      url: `https://github.com/${parts[0]}/${parts[1]!.replace(/\.git$/, '')}.git`,
      ref,
      raw: spec,
    };
  }
  const { name, range } = await nameAndRange(spec, spec);
  return { kind: 'registry', name, range, raw: spec };
}

/** `name[@range]` → name and range (`latest` when none), both checked. */
async function nameAndRange(s: string, spec: string): Promise<{ name: string; range: string }> {
  const at = s.lastIndexOf('@');
  const name = at > 0 ? s.slice(0, at) : s;
  const range = at > 0 ? s.slice(at + 1) : 'latest';
  if (!isPackageName(name)) {
    throw new AvpError(
      'spec-invalid',
      `"${spec}" is neither a package name, a directory, a git URL nor an archive URL`,
      {
        fix: 'names are 1–64 characters of a-z, 0-9 and "-" (avp add no-secrets, avp add no-secrets@^1.2, avp add ./my-validator, avp add owner/repo, avp add catalog:no-secrets)',
      },
    );
  }
  const { default: semver } = await import('./semver.ts');
  if (range !== 'latest' && !semver.validRange(range)) {
    throw new AvpError('spec-range-invalid', `"${range}" is not a version or a semver range`, {
      fix: `use an exact version (${name}@1.2.3), a range (${name}@^1.2) or ${name}@latest`,
    });
  }
  return { name, range };
}

/**
 * Picks the version to install: `latest` → /latest; an exact version → that version (even if yanked: exact pins
 * keep working); a range → the highest listed version that satisfies it (yanked ones are not listed).
 */
export async function resolveVersion(client: RegistryClient, name: string, range: string): Promise<PackageVersion> {
  if (range === 'latest') return client.latest(name);
  const { default: semver, highestMatching } = await import('./semver.ts');
  const exact = semver.valid(range);
  if (exact) return client.version(name, exact);
  const list = await client.versions(name);
  const versions = (list.versions ?? []).map((v) => v.version).filter((v) => semver.valid(v));
  const best = highestMatching(versions, range);
  if (!best) {
    throw new AvpError(
      'version-not-found',
      `no version of ${name} satisfies ${range} (available: ${versions.join(', ') || 'none'})`,
      {
        fix: `pick one of the available versions: avp add ${name}@<version>`,
      },
    );
  }
  return client.version(name, best);
}
