/**
 * Where avp's releases are and how to read them: the same layout `install.sh`, `install.ps1` and the GitHub Action
 * use. A release `vX.Y.Z` holds `avp-<os>-<arch>[.exe]` for every target, `sha256sums.txt` (sha256sum's format) and
 * `version.txt`. Releases live at `<base>/v<version>/<asset>`; the newest one's `version.txt` at the "latest" folder
 * (GitHub: `…/releases/latest/download/`, a mirror: `<base>/latest/`).
 */
import { AvpError } from '../errors.ts';

// Replaced by build.ts (Bun `define`) with the release URL the build was given ('' in a local build); from source
// it is not defined at all.
declare const AVP_BUILT_RELEASE_URL: string | undefined;

/**
 * The release base baked into this binary: `AVP_RELEASE_URL` at build time, or in GitHub Actions the repository the
 * build ran in (`<server>/<owner>/<repo>/releases/download`). A local build has none: no URL is ever made up.
 */
export const BUILT_RELEASE_URL: string | undefined =
  typeof AVP_BUILT_RELEASE_URL === 'string' && AVP_BUILT_RELEASE_URL ? AVP_BUILT_RELEASE_URL : undefined;

/**
 * The release base: `--release-url`, else `AVP_RELEASE_URL`, else the one this binary was built with. Throws when
 * there is none (a local build) and for a URL that is not https (plain http only to this machine).
 */
export function releaseBase(env: NodeJS.ProcessEnv = process.env, flag?: string): string {
  if (flag) return checkReleaseUrl(flag, '--release-url');
  if (env.AVP_RELEASE_URL) return checkReleaseUrl(env.AVP_RELEASE_URL, 'AVP_RELEASE_URL');
  if (BUILT_RELEASE_URL) return checkReleaseUrl(BUILT_RELEASE_URL, 'the release URL built into this avp');
  throw new AvpError(
    'upgrade-url',
    'this avp was built without a release URL, so it does not know where releases are',
    {
      fix:
        'name the folder holding v<version>/: avp upgrade --release-url https://github.com/<owner>/avp/releases/download ' +
        '(or set AVP_RELEASE_URL); nothing was changed',
    },
  );
}

/** `url` without trailing slashes, once it is a URL over https (plain http only to 127.0.0.1, localhost, [::1]). */
export function checkReleaseUrl(url: string, from: string): string {
  const base = url.trim().replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    throw new AvpError('upgrade-url', `${from} (${JSON.stringify(base.slice(0, 200))}) is not a URL`, {
      fix: 'give the folder holding v<version>/ (e.g. https://github.com/<owner>/avp/releases/download)',
    });
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new AvpError('upgrade-url', `${from} must be https:// (got ${parsed.protocol}//${parsed.host})`, {
      fix: 'a binary fetched over plain http cannot be trusted: use https (plain http only for 127.0.0.1)',
    });
  }
  return base;
}

/** The folder of the newest release: GitHub's `releases/latest/download`, else `<base>/latest`. */
export function latestFolder(base: string): string {
  return /\/releases\/download$/.test(base) ? base.replace(/\/download$/, '/latest/download') : `${base}/latest`;
}

/** The release asset for a platform: `avp-linux-x64`, `avp-darwin-arm64`, `avp-windows-x64.exe`. */
export function assetName(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  const os = platform === 'win32' ? 'windows' : platform;
  if (!['linux', 'darwin', 'windows'].includes(os) || !['x64', 'arm64'].includes(arch)) {
    throw new AvpError('upgrade-target', `there is no avp release for ${platform}-${arch}`, {
      fix: 'build avp from source (bun run build.ts) on this machine',
    });
  }
  return `avp-${os}-${arch}${os === 'windows' ? '.exe' : ''}`;
}

/** The checksum `sha256sums.txt` lists for `asset` (`<hex>  name` or `<hex> *name`), or undefined. */
export function checksumFor(sums: string, asset: string): string | undefined {
  for (const line of sums.split(/\r?\n/)) {
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line.trim());
    if (m && m[2] === asset) return m[1]!.toLowerCase();
  }
  return undefined;
}

/** A release version (`1.2.3`, `1.2.3-rc.1`), without a leading `v`; throws on anything else. */
export function releaseVersion(text: string, from: string): string {
  const v = text.trim().replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/.test(v)) {
    throw new AvpError('upgrade-version', `${from} says ${JSON.stringify(text.trim().slice(0, 40))}, not a version`, {
      fix: 'give a release version such as --version 0.2.0',
    });
  }
  return v;
}

/**
 * GETs `url` into memory, at most `limit` bytes, within `timeoutMs`. Throws `AvpError('upgrade-download')` naming
 * the URL on any failure; redirects (GitHub's release downloads) are followed.
 */
export async function download(url: string, limit: number, timeoutMs: number): Promise<Uint8Array> {
  let res: Response;
  try {
    // The built-in fetch on purpose: ofetch would add a retry and a timeout, and here nothing is retried (the user runs
    // `avp upgrade` again) while one deadline covers the whole download, read as a stream under a byte cap.
    res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new AvpError('upgrade-download', `could not download ${url}: ${(e as Error).message}`, {
      fix: 'check the network (or AVP_RELEASE_URL) and run avp upgrade again; nothing was changed',
    });
  }
  if (!res.ok) {
    throw new AvpError('upgrade-download', `could not download ${url}: HTTP ${res.status}`, {
      fix:
        res.status === 404
          ? 'that release or file does not exist: check --version (or AVP_RELEASE_URL)'
          : 'try again later; nothing was changed',
    });
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > limit) throw tooBig(url, limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw tooBig(url, limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function tooBig(url: string, limit: number): AvpError {
  return new AvpError('upgrade-download', `${url} is larger than ${limit} bytes`, {
    fix: 'that is not an avp release: check AVP_RELEASE_URL; nothing was changed',
  });
}
