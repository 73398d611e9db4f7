/**
 * `avp init --managed` for Codex: `/etc/codex/requirements.toml`, the administrator's requirements, which Codex reads
 * above every config.toml and `-c` flag. Checked with `codex exec` 0.169 under a copy of /etc:
 *
 * - inline `[[hooks.<Event>]]` tables there run without the trust review other hooks wait for;
 * - `allow_managed_hooks_only = true` drops the user's and the project's hooks (their config.toml hooks did not run);
 * - `[features] hooks = true` there keeps hooks on when the user's config.toml or `-c features.hooks=false` turns
 *   them off (without it, both turned the managed hooks off too).
 *
 * avp has no TOML editor and edits no TOML table it does not own: its lines go in two marked blocks (the top-level
 * key first, before any table; its tables at the end), recorded exactly, so removal gives the file back byte for
 * byte. A file that already sets any of these keys or tables is refused with the lines to add by hand.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AvpError } from '../errors.ts';

export const CODEX_REQUIREMENTS = '/etc/codex/requirements.toml';

const BEGIN = '# avp init --managed: begin (sudo avp deinit --managed removes it)';
const END = '# avp init --managed: end';

/** What avp put in the file: the exact text before and after the admin's own. */
export interface CodexInsert {
  head: string;
  tail: string;
}

/** The two blocks for `command` on `events`. */
export function codexBlocks(command: string, timeoutSeconds: number, events: readonly string[]): CodexInsert {
  const head = `${BEGIN}\nallow_managed_hooks_only = true\n${END}\n\n`;
  const tables = events.map(
    (e) =>
      `[[hooks.${e}]]\nmatcher = "*"\n\n[[hooks.${e}.hooks]]\ntype = "command"\n` +
      `command = ${JSON.stringify(command)}\ntimeout = ${timeoutSeconds}\n`,
  );
  const tail = `\n${BEGIN}\n[features]\nhooks = true\n\n${tables.join('\n')}${END}\n`;
  return { head, tail };
}

/** Keys and tables of the admin's file that avp's blocks would collide with. */
function collisions(text: string): string[] {
  const found: string[] = [];
  if (/^\s*allow_managed_hooks_only\s*=/m.test(text)) found.push('allow_managed_hooks_only');
  if (/^\s*\[\s*features\s*\]|^\s*features\s*[.=]/m.test(text)) found.push('[features]');
  if (/^\s*\[\[?\s*hooks[\s.\]]|^\s*hooks\s*[.=]/m.test(text)) found.push('[hooks]');
  return found;
}

/** Refuses a requirements file that already sets a key or table of avp's blocks (TOML cannot hold it twice). */
export function checkCodexRequirements(text: string, path = CODEX_REQUIREMENTS): void {
  const clash = collisions(text);
  if (!clash.length) return;
  throw new AvpError(
    'managed-codex',
    `${path} already sets ${clash.join(', ')}; avp does not merge TOML it does not own`,
    {
      file: path,
      fix:
        'add allow_managed_hooks_only = true, hooks = true under [features] and a [[hooks.<Event>]] table per event ' +
        'running /etc/avp/bin/avp hook --agent codex yourself (docs/hook-mode.md), or leave codex out of --agent',
    },
  );
}

/** Writes avp's blocks into the requirements file (created when absent). Returns what to remove later. */
export function installCodexRequirements(blocks: CodexInsert, path = CODEX_REQUIREMENTS): CodexInsert {
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  checkCodexRequirements(before, path);
  const tail = before === '' || before.endsWith('\n') ? blocks.tail : `\n${blocks.tail}`;
  writeText(path, `${blocks.head}${before}${tail}`);
  return { head: blocks.head, tail };
}

function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  writeFileSync(path, text, { mode: 0o644 });
  chmodSync(path, 0o644);
}

/** Removes exactly what `installCodexRequirements` inserted; a file it created is left empty for the caller. */
export function removeCodexRequirements(inserted: CodexInsert, path = CODEX_REQUIREMENTS): string {
  const text = readFileSync(path, 'utf8');
  if (!text.startsWith(inserted.head) || !text.endsWith(inserted.tail))
    throw new AvpError('managed-codex', `avp's lines in ${path} were edited; avp did not change the file`, {
      file: path,
      fix: `remove the lines between "${BEGIN}" and "${END}" (both blocks) by hand`,
    });
  const rest = text.slice(inserted.head.length, text.length - inserted.tail.length);
  writeFileSync(path, rest);
  return rest;
}
