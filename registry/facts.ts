import type { ArchiveInfo } from '../src/registry-client/archive.ts';
import type { VersionTests } from '../src/registry-client/version-tests.ts';

/**
 * What a version's pages show at a glance, worked out once at publish from the checked archive and stored as JSON
 * in `versions.facts`: the validator's trigger, severity and match, the VALIDATOR.md body (rendered as markdown on
 * the package page) and the file list. Versions published before this column existed get theirs from the archive on
 * first view (`factsFromArchive`).
 */
export interface Facts {
  trigger?: string;
  severity?: string;
  match: { tools?: string[]; files?: string[] };
  triggerMatcher?: string;
  once?: boolean;
  timeout?: number;
  /** The VALIDATOR.md markdown after the frontmatter (bounded). */
  body: string;
  files: Array<{ path: string; size: number }>;
  /** The version's case files (counted here) and its publisher's report of running them (publish-tests.ts). */
  tests?: VersionTests;
}

const MAX_BODY = 256 * 1024;

/** Facts of a checked archive (the upload checks have already linted it, so the frontmatter parses). */
export async function factsOf(info: ArchiveInfo): Promise<Facts> {
  const files = info.files.map((f) => ({ path: f.path, size: f.data.length }));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const md = info.files.find((f) => f.path === 'VALIDATOR.md');
  const caseFiles = files.filter((f) => f.path.startsWith('tests/')).length;
  const facts: Facts = { match: {}, body: '', files, tests: { caseFiles, reportedBy: 'publisher' } };
  if (!md) return facts;
  const { parseFrontmatter, isProblem } = await import('../src/validator/frontmatter.ts');
  const fm = parseFrontmatter(new TextDecoder().decode(md.data));
  if (isProblem(fm)) return facts;
  facts.body = fm.body.trim().slice(0, MAX_BODY);
  const { validateSpec } = await import('../src/validator/schema.ts');
  const { spec } = validateSpec(fm);
  if (!spec) return facts;
  facts.trigger = spec.trigger;
  facts.severity = spec.severity;
  facts.match = {
    ...(spec.match.tools ? { tools: spec.match.tools } : {}),
    ...(spec.match.files ? { files: spec.match.files } : {}),
  };
  if (spec.triggerMatcher) facts.triggerMatcher = spec.triggerMatcher;
  if (spec.once) facts.once = true;
  facts.timeout = spec.timeout;
  return facts;
}

/** Facts from stored archive bytes (versions published before facts were recorded). */
export async function factsFromArchive(bytes: Uint8Array): Promise<Facts> {
  const { inspectArchive } = await import('../src/registry-client/archive.ts');
  return factsOf(await inspectArchive(bytes, { allowOtherTypes: true }));
}

/** Parses a stored `facts` column; undefined when absent or unreadable. */
export function parseFacts(raw: unknown): Facts | undefined {
  if (typeof raw !== 'string' || !raw) return undefined;
  try {
    const f = JSON.parse(raw) as Facts;
    return f && typeof f === 'object' && Array.isArray(f.files) ? f : undefined;
  } catch {
    return undefined;
  }
}
