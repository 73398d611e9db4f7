import { AvpError } from '../errors.ts';

/** What a package says about itself (VALIDATOR.md frontmatter), as the registry records it. */
export interface PackageManifest {
  name: string;
  version: string;
  description?: string;
  license?: string;
  author?: string;
  tags?: string[];
  /** Set when the archive's version was the unfilled release template (`{{version}}`) and the registry's stood in. */
  versionFromRegistry?: true;
}

/** An unfilled release template such as `{{version}}` (the reference fills it when it builds a release). */
const VERSION_TEMPLATE = /^\{\{\s*[A-Za-z_.]+\s*\}\}$/;

/** The registry's package-name rule: 1–64 of `[a-z0-9-]`, no leading, trailing or double hyphen. */
const PACKAGE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Is this a valid package name (also used for `avp add <name>` before anything touches the network or disk)? */
export function isPackageName(name: string): boolean {
  return name.length >= 1 && name.length <= 64 && PACKAGE_NAME.test(name);
}

/** Throws the name-rule error; `file` says where the name came from. */
function assertPackageName(name: unknown, file?: string): asserts name is string {
  if (typeof name === 'string' && isPackageName(name)) return;
  throw new AvpError(
    'package-name-invalid',
    `package name ${JSON.stringify(name)} is not valid: 1–64 characters of a-z, 0-9 and "-", no leading, trailing or double hyphen`,
    { fix: 'set `name:` in the VALIDATOR.md frontmatter to something like `no-secrets`', file },
  );
}

/**
 * Checks a version string: a semantic version (MAJOR.MINOR.PATCH[-pre][+build]). The registry orders versions and
 * resolves ranges, so anything else ("1.0", "latest") cannot be published.
 */
async function assertVersion(version: unknown, file?: string): Promise<string> {
  if (typeof version === 'string' && VERSION_TEMPLATE.test(version.trim())) {
    throw new AvpError(
      'package-version-template',
      `version "${version}" is an unfilled release template, not a version: avp cannot tell which version this is`,
      {
        fix: `replace it with the version you release, e.g. \`metadata:\n    version: "1.0.0"\`; registry installs take the version the registry recorded`,
        file,
      },
    );
  }
  if (typeof version === 'number') {
    throw new AvpError('package-version-not-string', `version ${version} is a YAML number, not a string`, {
      fix: `quote it and use three parts: \`metadata:\n    version: "${Number.isInteger(version) ? `${version}.0.0` : `${version}.0`}"\``,
      file,
    });
  }
  if (typeof version !== 'string' || version.trim() === '') {
    throw new AvpError('package-version-missing', 'the package has no version', {
      fix: 'add `metadata:\n    version: "1.0.0"` to the VALIDATOR.md frontmatter (a quoted semantic version)',
      file,
    });
  }
  const { default: semver } = await import('./semver.ts');
  if (semver.valid(version) !== version || version.length > 64) {
    throw new AvpError(
      'package-version-invalid',
      `version "${version}" is not a semantic version (MAJOR.MINOR.PATCH)`,
      {
        fix: 'write it as three numbers, e.g. `version: "1.0.0"`',
        file,
      },
    );
  }
  return version;
}

/**
 * Reads name, version and descriptive fields from a VALIDATOR.md's frontmatter. The version is `metadata.version`,
 * else a top-level `version` (older packages), and must be a YAML string. `registryVersion`: the version a registry
 * recorded for this archive, which stands in for an unfilled `{{version}}` template (and only for that).
 */
export async function readManifest(
  text: string,
  file = 'VALIDATOR.md',
  opts: { registryVersion?: string } = {},
): Promise<PackageManifest> {
  const data = await parseFrontmatter(text, file);
  assertPackageName(data.name, file);
  const metadata = isRecord(data.metadata) ? data.metadata : {};
  const raw = metadata.version !== undefined ? metadata.version : data.version;
  const templated = typeof raw === 'string' && VERSION_TEMPLATE.test(raw.trim());
  const version = await assertVersion(templated && opts.registryVersion ? opts.registryVersion : raw, file);
  const manifest: PackageManifest = { name: data.name, version };
  if (templated) manifest.versionFromRegistry = true;
  const description = str(data.description);
  if (description) manifest.description = description;
  const license = str(data.license) ?? str(metadata.license);
  if (license) manifest.license = license;
  const author = authorOf(metadata.author ?? data.author);
  if (author) manifest.author = author;
  const tags = Array.isArray(data.tags) ? data.tags : Array.isArray(metadata.tags) ? metadata.tags : undefined;
  if (tags) manifest.tags = tags.filter((t): t is string => typeof t === 'string');
  return manifest;
}

/** Parses `---` YAML frontmatter; a syntax error names the file and line. */
export async function parseFrontmatter(text: string, file: string): Promise<Record<string, unknown>> {
  if (!/^(?:\uFEFF)?---\r?\n/.test(text)) {
    throw new AvpError('frontmatter-missing', `${file} has no YAML frontmatter`, {
      fix: 'start the file with `---`, the fields (name, description, trigger…, metadata.version), then `---`',
      file,
      line: 1,
    });
  }
  // The same parse (and YAML limits: alias bombs, size) as loading and `avp lint`.
  const { parseFrontmatter: parse, isProblem } = await import('../validator/frontmatter.ts');
  const fm = parse(text);
  if (!isProblem(fm)) return fm.data;
  throw new AvpError('frontmatter-invalid', `${file}:${fm.line}: ${fm.message}`, {
    fix: fm.fix ?? 'fix the YAML between the `---` lines (quote values containing `:` or `#`)',
    file,
    line: fm.line,
    column: fm.column,
  });
}

function isRecord(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

function authorOf(v: unknown): string | undefined {
  if (typeof v === 'string') return str(v);
  if (isRecord(v)) return str(v.name);
  return undefined;
}
