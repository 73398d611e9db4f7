/**
 * jsonc-parser, loaded when first needed. The accepted-state check reads an agent's hook settings (JSONC) only when
 * one changed since acceptance; evaluating the parser's module on every hook call cost more CPU than the check
 * itself (its scanner builds large enum tables at load). `require` keeps the call synchronous, as the check is; the
 * package's ES build, because the bundler cannot follow its UMD build's own requires (`./impl/format`).
 */
import type * as Jsonc from 'jsonc-parser';

let parser: typeof Jsonc | undefined;

/** jsonc-parser's `parse` with trailing commas allowed (errors collected, never thrown). */
export function parseJsonc(text: string): unknown {
  parser ??= require('jsonc-parser/lib/esm/main.js') as typeof Jsonc;
  return parser.parse(text, [], { allowTrailingComma: true });
}
