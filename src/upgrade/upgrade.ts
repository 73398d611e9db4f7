/**
 * `avp upgrade`: find the release to install (the newest, or `--version`), download this platform's binary and the
 * release's checksums, verify the SHA-256, and replace the running binary atomically (see replace.ts).
 */
import { createHash } from 'node:crypto';
import { AvpError } from '../errors.ts';
import { VERSION } from '../version.ts';
import { assetName, checksumFor, download, latestFolder, releaseBase, releaseVersion } from './release.ts';
import { replaceBinary, runningBinary } from './replace.ts';

/** A release binary is ~120 MB; anything past this is not one. */
const MAX_BINARY = 512 * 1024 * 1024;
const MAX_TEXT = 64 * 1024;
const TEXT_TIMEOUT = 30_000;
const BINARY_TIMEOUT = 10 * 60_000;

export interface UpgradeOptions {
  /** A release version to install (default: the newest). */
  version?: string;
  /** Only say what would be installed. */
  check?: boolean;
  /** Install even when the version is the running one. */
  force?: boolean;
  /** Where releases live (`--release-url`); wins over `AVP_RELEASE_URL` and the URL built into the binary. */
  releaseUrl?: string;
  env?: NodeJS.ProcessEnv;
}

export interface UpgradeResult {
  from: string;
  to: string;
  /** `up-to-date`: nothing to do; `available`: `--check` found a newer one; `upgraded`: replaced. */
  status: 'up-to-date' | 'available' | 'upgraded';
  /** The release base that was asked. */
  releaseUrl: string;
  path?: string;
  sha256?: string;
  asset?: string;
  kept?: string;
}

/** Upgrades (or with `check`, looks). Throws `AvpError` with the running binary untouched on any failure. */
export async function upgrade(opts: UpgradeOptions = {}): Promise<UpgradeResult> {
  const env = opts.env ?? process.env;
  const base = releaseBase(env, opts.releaseUrl);
  const target = opts.check ? undefined : runningBinary();
  const to = opts.version
    ? releaseVersion(opts.version, '--version')
    : releaseVersion(
        new TextDecoder().decode(await download(`${latestFolder(base)}/version.txt`, MAX_TEXT, TEXT_TIMEOUT)),
        `${latestFolder(base)}/version.txt`,
      );
  const from = VERSION;
  if (to === from && !opts.force) return { from, to, status: 'up-to-date', releaseUrl: base };
  if (opts.check) return { from, to, status: 'available', releaseUrl: base };
  const asset = assetName();
  const folder = `${base}/v${to}`;
  const sums = new TextDecoder().decode(await download(`${folder}/sha256sums.txt`, MAX_TEXT, TEXT_TIMEOUT));
  const expected = checksumFor(sums, asset);
  if (!expected) {
    throw new AvpError('upgrade-checksum', `${folder}/sha256sums.txt lists no checksum for ${asset}`, {
      fix: 'that release has no binary for this platform (or is incomplete): nothing was changed',
    });
  }
  const bytes = await download(`${folder}/${asset}`, MAX_BINARY, BINARY_TIMEOUT);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== expected) {
    throw new AvpError(
      'upgrade-checksum',
      `checksum mismatch for ${asset} v${to}: the release lists ${expected}, the download is ${actual}`,
      { fix: 'nothing was changed; do not install this file by hand — report it' },
    );
  }
  const done = replaceBinary(target!, bytes, to);
  return {
    from,
    to,
    status: 'upgraded',
    releaseUrl: base,
    path: done.path,
    sha256: actual,
    asset,
    ...(done.kept ? { kept: done.kept } : {}),
  };
}
