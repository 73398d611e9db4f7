/**
 * Lines of a `.env` file that switch avp off for the agents that read it. Qwen Code (0.24, checked with the real CLI)
 * reads a project's `.env` and `.qwen/.env`, `~/.qwen/.env` and `~/.env` into its own environment, and Gemini CLI
 * (0.61, read in its code) the first of `.gemini/.env` / `.env` walking up from the project, then `~/.gemini/.env`,
 * `~/.env`; both pass that environment on to their hooks. So a line there can run no hook at all
 * (`QWEN_CODE_SAFE_MODE`, `QWEN_CODE_SIMPLE`), move the system settings `avp init --managed` writes
 * (`*_SYSTEM_SETTINGS_PATH`, `*_SYSTEM_DEFAULTS_PATH`), make Gemini distrust the folder (where it runs no hook), or
 * reach avp itself (`AVP_DISABLE`, `AVP_SUBAGENT`, `AVP_DISABLED_VALIDATORS`, `AVP_HOME` …) — for the next
 * session, which never calls avp to be told. Ordinary lines (`DATABASE_URL=…`, API keys) are not switches.
 */

/**
 * Every `AVP_*` name avp's code reads or sets (a test keeps the list complete). Any of them in a hook's environment
 * changes what avp does; other `AVP_*` names (Amazon Verified Permissions' `AVP_POLICY_STORE_ID`) are ordinary lines.
 */
export const AVP_NAMES = (
  'BUDGET_MS BUILT_RELEASE_URL CLAUDE_BIN CONCURRENCY CREDENTIALS_PATH DANGEROUS_COMMANDS_ALLOW ' +
  'DANGEROUS_COMMANDS_DENY DEBUG DISABLE DISABLED_VALIDATORS EVENT GITIGNORE_LINES HOME JUDGE JUDGE_BATCH ' +
  'JUDGE_COMMAND JUDGE_CONCURRENCY JUDGE_STREAM MANAGED_CONFIG MAX_STOP_BLOCKS MODEL NO_CACHE PROFILE PROJECT_ROOT ' +
  'QUIET REGISTRY_ARCHIVES REGISTRY_DATA REGISTRY_DB REGISTRY_SILENCE REGISTRY_TIMEOUT REGISTRY_URL RELEASE_URL ' +
  'SCRIPT_PROCESS SCRIPT_WORKER SHORTCUT SHORTCUT_TRACE STDIN_TIMEOUT_MS SUBAGENT TOKEN TRACK_MAX_FILES VALIDATOR_DIR ' +
  'VALIDATOR_ID VALIDATOR_NAME'
)
  .split(' ')
  .map((n) => `AVP_${n}`);

/** The names a `.env` line may switch hooks or avp off with. */
const NAMES = `(?:${AVP_NAMES.join('|')}|QWEN_CODE_SAFE_MODE|QWEN_CODE_SIMPLE|(?:QWEN_CODE|GEMINI_CLI)_SYSTEM_(?:SETTINGS|DEFAULTS)_PATH|GEMINI_CLI_TRUSTED_FOLDERS_PATH|GEMINI_CLI_TRUST_WORKSPACE|GEMINI_RESTRICTED_MODE)`;
const SWITCH_NAME = new RegExp(`^${NAMES}$`);

/** The same names anywhere in a text (a shell command, a patch), for "names a switch". */
export const SWITCH_MENTION = new RegExp(`(?<![\\w$])${NAMES}(?!\\w)`, 'g');

/** The file names these agents read (`.env` in any folder: Gemini walks up from the project to find one). */
export function isAgentEnvFile(path: string): boolean {
  return /(?:^|[/\\])\.env$/i.test(path);
}

/** True when `NAME=value` switches something off: an empty value sets nothing, and `0`/`false` are "off" flags. */
export function switches(name: string, value: string): boolean {
  if (!SWITCH_NAME.test(name) || value === '') return false;
  if (name === 'GEMINI_CLI_TRUST_WORKSPACE') return value.toLowerCase() !== 'true';
  if (/^(?:QWEN_CODE_SAFE_MODE|QWEN_CODE_SIMPLE|GEMINI_RESTRICTED_MODE|AVP_DISABLE|AVP_SUBAGENT)$/.test(name))
    return !/^(?:0|false|no|off)$/i.test(value);
  return true;
}

/** A `.env` value as dotenv reads it: quotes taken off, an unquoted ` # comment` dropped. */
function unquote(raw: string): string {
  const v = raw.trim();
  const q = /^(['"`])([\s\S]*?)\1/.exec(v);
  if (q) return q[2]!;
  return v.replace(/\s+#.*$/, '').trim();
}

/** The switching lines of a `.env` file's text, as sorted `NAME=value` rows (empty when there are none). */
export function envSwitchLines(text: string | null | undefined): string[] {
  if (!text) return [];
  const rows = new Set<string>();
  for (const line of text.split(/\r?\n|\r/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (!m) continue;
    const value = unquote(m[2]!);
    if (switches(m[1]!, value)) rows.add(`${m[1]}=${value}`);
  }
  return [...rows].sort();
}

/** The first switching row in `after` that `before` does not hold, or undefined. */
export function addedEnvSwitch(
  before: string | null | undefined,
  after: string | null | undefined,
): string | undefined {
  const was = new Set(envSwitchLines(before));
  return envSwitchLines(after).find((r) => !was.has(r));
}

/**
 * The switch a piece of text (a shell command and the words it expands to) names, for a command that writes a `.env`
 * file: `NAME=value` with a value that switches, or the bare name (`printf '%s=1' QWEN_CODE_SAFE_MODE`), which the
 * guard cannot show harmless. A name set to a harmless value (`AVP_DISABLE=0`) is not one.
 */
export function mentionedEnvSwitch(text: string): string | undefined {
  for (const m of text.matchAll(SWITCH_MENTION)) {
    const rest = text.slice(m.index + m[0].length);
    const eq = /^\s*[=:]\s*['"]?([^\s'"`\\;|&)<>]*)/.exec(rest);
    if (!eq) return m[0];
    // An empty value is read as unknown: the value may follow in another word (`"QWEN_CODE_SAFE_MODE="1`).
    if (switches(m[0], eq[1]!) || eq[1] === '') return `${m[0]}=${eq[1]}`;
  }
  return undefined;
}

/** Why a `.env` switching line is refused, and what the user can do: the tail of a refusal that names the line. */
export const ENV_SWITCH_REFUSAL =
  "Qwen Code and Gemini CLI load a .env file into their own and their hooks' environment, where such a line " +
  "switches their hooks (avp's included) off, moves their system settings or reaches avp, from the next session " +
  'on, with nobody told. Only the user sets it, in their own editor or terminal; other .env lines (URLs, keys, ' +
  'options) can be written as usual.';
