import { resolve } from 'node:path';
import { AvpError, isAvpError } from '../errors.ts';
import { integrityOf, packDirectory } from './archive.ts';
import { clientFor } from './credentials.ts';
import type { PackageManifest } from './manifest.ts';
import type { PublishResult } from './types.ts';

export interface PackResult {
  dir: string;
  manifest: PackageManifest;
  files: string[];
  size: number;
  integrity: string;
  bytes: Uint8Array;
}

/** Lints (the rules of `avp lint`; errors refuse) and packs a validator directory for publishing. */
export async function preparePublish(dir: string): Promise<PackResult & { warnings: string[] }> {
  const abs = resolve(dir);
  const { lintPaths, formatLint } = await import('../validator/lint.ts');
  const messages = await lintPaths([abs]);
  const errors = messages.filter((m) => m.level === 'error');
  if (errors.length) {
    throw new AvpError(
      'publish-lint-failed',
      `${abs} does not pass \`avp lint\`:\n${errors
        .slice(0, 10)
        .map((m) => `  ${formatLint(m)}`)
        .join('\n')}`,
      {
        fix: 'fix the errors above, then publish again',
      },
    );
  }
  const packed = await packDirectory(abs);
  return {
    dir: abs,
    manifest: packed.manifest,
    files: packed.files,
    size: packed.bytes.length,
    integrity: integrityOf(packed.bytes),
    bytes: packed.bytes,
    warnings: messages.filter((m) => m.level === 'warning').map((m) => formatLint(m)),
  };
}

/** Uploads a packed validator; 409 becomes "this version exists, bump metadata.version". */
export async function uploadPackage(
  pack: PackResult,
  opts: {
    registry?: string;
    projectRoot: string;
    env?: NodeJS.ProcessEnv;
    /** The run of the package's script cases, sent along for the registry to record. */
    tests?: { cases: number; failed: number; publishedWithFailing: boolean };
  },
): Promise<PublishResult & { registry: string }> {
  const client = await clientFor({
    registry: opts.registry,
    projectRoot: opts.projectRoot,
    env: opts.env,
    requireToken: true,
  });
  try {
    const r = await client.publish(pack.bytes, opts.tests);
    // Only an answer about this very package counts as published (not a proxy's page, not another upload's result).
    if (r.published === false || r.name !== pack.manifest.name || r.version !== pack.manifest.version) {
      throw new AvpError(
        'publish-unconfirmed',
        `${client.base} answered the upload of ${pack.manifest.name}@${pack.manifest.version} with ` +
          `${JSON.stringify({ name: r.name, version: r.version, published: r.published }).slice(0, 200)}, ` +
          'not a confirmation of this package',
        { fix: 'check with `avp info <name>` whether it was published, and that the URL is an AVP registry' },
      );
    }
    return { ...r, registry: client.base };
  } catch (e) {
    if (isAvpError(e) && e.code === 'registry-409') {
      throw new AvpError(
        'publish-version-exists',
        `${pack.manifest.name}@${pack.manifest.version} is already published on ${client.base} (versions are immutable)`,
        {
          fix: 'bump metadata.version in VALIDATOR.md (e.g. 1.0.1), then publish again',
          cause: e,
        },
      );
    }
    throw e;
  }
}

/** `avp yank name@version`: hides a version from resolution (still downloadable by an exact lockfile pin). */
export async function yankVersion(
  spec: string,
  opts: { registry?: string; projectRoot: string; env?: NodeJS.ProcessEnv },
): Promise<{ name: string; version: string; registry: string; deleted: boolean }> {
  const at = spec.lastIndexOf('@');
  const name = at > 0 ? spec.slice(0, at) : '';
  const version = at > 0 ? spec.slice(at + 1) : '';
  if (!name || !version)
    throw new AvpError('spec-invalid', `"${spec}" is not name@version`, { fix: 'avp yank my-validator@1.2.3' });
  const client = await clientFor({
    registry: opts.registry,
    projectRoot: opts.projectRoot,
    env: opts.env,
    requireToken: true,
  });
  const answer = await client.yank(name, version);
  // A registry that deleted the version (the reference's DELETE) must not be reported as a yank.
  return { name, version, registry: client.base, deleted: answer.deleted === true && answer.yanked !== true };
}
