import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isAvpError } from '../src/errors.ts';
import type { ArchiveInfo } from '../src/registry-client/archive.ts';
import { HttpError } from './errors.ts';
import { LIMITS, formatBytes } from './body.ts';

/** What the server records about an accepted upload. */
export interface CheckedUpload {
  info: ArchiveInfo;
  integrity: string;
  size: number;
  readme?: string;
}

const PUBLISHER_FIX =
  'publish with `avp publish <dir>`: it packs regular files only, under one top folder, within the size limits';

const invalid = (error: string, description: string) => new HttpError(422, error, description);

/**
 * Runs the client's own checks on an uploaded archive, so the server never stores what `avp add` would refuse:
 * ZIP only, ≤ 10 MiB, safe entries under one top folder (inspectArchive: no absolute paths, `..`, backslashes,
 * links, device files, duplicates, expansion past 50 MiB), a validator (not a skill/tool/plugin/agent), name and
 * semantic-version rules, and the same lint as `avp lint` on the extracted files. Integrity is computed here,
 * never taken from the client.
 */
export async function checkUpload(bytes: Uint8Array, tmp: string): Promise<CheckedUpload> {
  if (bytes.length > LIMITS.archiveBytes) {
    throw new HttpError(
      413,
      'payload_too_large',
      `the package archive is ${formatBytes(bytes.length)}; the limit is ${formatBytes(LIMITS.archiveBytes)}`,
    );
  }
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new HttpError(
      400,
      'invalid_archive',
      'the `package` part is not a ZIP archive; upload the zip made by `avp publish`',
    );
  }
  const { inspectArchive, integrityOf, extractArchive } = await import('../src/registry-client/archive.ts');
  let info: ArchiveInfo;
  try {
    info = await inspectArchive(bytes);
  } catch (e) {
    if (!isAvpError(e)) throw e;
    // The client's fixes speak to someone installing; an upload's author needs the publishing side of the fix.
    const fix = /do not install/.test(e.fix ?? '') ? PUBLISHER_FIX : e.fix;
    const text = `${e.message}${fix ? ` (fix: ${fix})` : ''}`;
    // Broken or unsafe archives (zip bombs included: the compressed size was checked above) are bad requests; a
    // well-formed archive whose content breaks the package rules (type, name, version, frontmatter) is unprocessable.
    const content =
      /^(package-|frontmatter-)/.test(e.code) ||
      ['archive-not-validator', 'archive-no-validator', 'archive-manifest-invalid'].includes(e.code);
    throw new HttpError(content ? 422 : 400, e.code, text);
  }
  if (info.type !== 'validator')
    throw invalid('archive-not-validator', `this package is a ${info.type}; this registry accepts validators only`);
  const problems = await lintArchive(info, extractArchive, tmp);
  if (problems.length) {
    throw invalid('invalid_validator', `the validator does not pass \`avp lint\`: ${problems.join('; ')}`);
  }
  return { info, integrity: integrityOf(bytes), size: bytes.length, readme: readmeOf(info) };
}

/** Lint errors (not warnings) of the extracted package, as `path:line:col message` with paths inside the package. */
async function lintArchive(
  info: ArchiveInfo,
  extract: (i: ArchiveInfo, d: string) => Promise<void>,
  tmp: string,
): Promise<string[]> {
  // Under the data folder, named by our pid, so the next start can remove it if this process is killed meanwhile.
  const root = mkdtempSync(join(tmp, `${process.pid}-`));
  try {
    const dir = join(root, info.manifest.name);
    await extract(info, dir);
    const { lintPaths } = await import('../src/validator/lint.ts');
    const messages = await lintPaths([dir]);
    return messages
      .filter((m) => m.level === 'error')
      .slice(0, 20)
      .map(
        (m) => `${m.path.startsWith(root) ? m.path.slice(root.length + 1) : m.path}:${m.line}:${m.column} ${m.message}`,
      );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** README.md when the package has one, else the VALIDATOR.md prompt (what a person reads to judge it). */
function readmeOf(info: ArchiveInfo): string | undefined {
  const file = info.files.find((f) => f.path === 'README.md') ?? info.files.find((f) => f.path === 'VALIDATOR.md');
  if (!file) return undefined;
  let text = new TextDecoder().decode(file.data);
  if (file.path === 'VALIDATOR.md') text = text.replace(/^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/, '');
  text = text.trim();
  return text ? text.slice(0, 256 * 1024) : undefined;
}
