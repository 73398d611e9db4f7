import type { Severity, Trigger } from '../validator/types.ts';

/** One catalog validator as `avp list --available` and `avp init` show it (read from its frontmatter at build time). */
export interface CatalogEntry {
  name: string;
  description: string;
  severity: Severity;
  trigger: Trigger;
  /** `script` = deterministic script judge (offline, no tokens); `llm` = prompt for an LLM judge. */
  judge: 'script' | 'llm';
  /** Installed by `avp init` by default (`metadata.recommended: true`). */
  recommended: boolean;
  /** `metadata.version`. */
  version: string;
}

/** One embedded file: UTF-8 text, or base64 for anything that is not. */
export interface CatalogFile {
  path: string;
  text?: string;
  base64?: string;
}
