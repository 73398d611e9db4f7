/**
 * The parts of an agent's settings that decide whether its hooks (avp's among them) run, and with what environment,
 * beside the hook entries themselves: Claude Code's `disableAllHooks` and `allowManagedHooksOnly`, Gemini CLI's and
 * Qwen Code's `hooks.enabled` / `hooksConfig` / `disabled` lists, any other key naming hooks, the `env` a settings file
 * gives hook processes (`AVP_*`, `PATH`, the folders avp reads), where avp's entries sit (an event moved out of
 * `"hooks"` is one the agent no longer runs) and their `type` (`prompt` runs no command). Codex switches hooks in
 * `config.toml` (`[features] hooks`). A file-tool change to any of these is refused by the guard (guard.ts), and the
 * hook view says so when it finds them changed behind avp's back.
 */
import { readRegularText } from '../os/read-regular.ts';
import { parseJsonc } from './jsonc.ts';
import { isAvpHookCommand } from './avp-command.ts';
import { avpHookEntries } from './hook-entries.ts';

/**
 * Environment names a settings file may not set: they switch avp off, reroute it, or move what it reads. Qwen Code
 * applies its settings' `env` to itself (0.24, checked with the real CLI): `QWEN_CODE_SAFE_MODE` and
 * `QWEN_CODE_SIMPLE` there switch every hook off, the system settings' too. The `*_SYSTEM_*_PATH` names (which move
 * the system settings `avp init --managed` writes) and Gemini CLI's folder-trust names are refused as well: a later
 * version that applies them from `env` must not find them already set.
 */
const ENV_SWITCH =
  /^(?:AVP_\w*|PATH|HOME|XDG_CONFIG_HOME|CLAUDE_CONFIG_DIR|CODEX_HOME|COPILOT_HOME|CLAUDE_PROJECT_DIR|QWEN_CODE_SAFE_MODE|QWEN_CODE_SIMPLE|(?:QWEN_CODE|GEMINI_CLI)_SYSTEM_(?:SETTINGS|DEFAULTS)_PATH|GEMINI_CLI_TRUST_WORKSPACE|GEMINI_RESTRICTED_MODE)$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Rows of `value`'s switches: hook-named keys (and all they hold but event lists), `env` switches, avp's entries. */
function jsonSwitches(value: unknown): string[] {
  const rows: string[] = [];
  const walk = (v: unknown, path: string, hookish: boolean, depth: number) => {
    if (depth > 6) return;
    if (Array.isArray(v)) {
      // An event's list of hook groups: avp's entries there are recorded with where they sit and their type.
      if (v.some(isObject)) {
        for (const g of v.filter(isObject)) {
          const entries = Array.isArray(g.hooks) ? g.hooks.filter(isObject) : [g];
          for (const h of entries)
            if ([h.command, h.bash, h.powershell].some(isAvpHookCommand))
              rows.push(`entry ${path} type=${String(h.type)}`);
        }
        return;
      }
      if (hookish) rows.push(`${path}=${JSON.stringify(v)}`);
      return;
    }
    if (!isObject(v)) {
      if (hookish) rows.push(`${path}=${JSON.stringify(v)}`);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      const p = path ? `${path}.${k}` : k;
      if (k === 'env' && isObject(x)) {
        for (const [name, val] of Object.entries(x))
          if (ENV_SWITCH.test(name)) rows.push(`env ${p}.${name}=${String(val)}`);
        continue;
      }
      walk(x, p, hookish || /hook/i.test(k) || (k === 'enabledPlugins' && depth === 0), depth + 1);
    }
  };
  walk(value, '', false, 0);
  return rows.sort();
}

/** The switches of a settings file's text (JSON with comments, or Codex's TOML), as canonical text. */
export function hookSwitches(path: string, text: string | null | undefined): string {
  if (!text) return '';
  if (/\.toml$/i.test(path))
    return text
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter((l) => /hook|^\[|^env\b|AVP_/i.test(l))
      .join('\n');
  return jsonSwitches(parseJsonc(text)).join('\n');
}

/** What changed between two switch texts, for a reason (the first row added or removed). */
export function describeSwitchChange(before: string, after: string): string {
  const was = new Set(before.split('\n').filter(Boolean));
  const now = new Set(after.split('\n').filter(Boolean));
  const added = [...now].find((r) => !was.has(r));
  const removed = [...was].find((r) => !now.has(r));
  return added ? `sets ${added}` : removed ? `removes ${removed}` : 'changes how its hooks run';
}

/** Why a settings file's switches (as they are now) stop avp's hooks: the user is told this, not "still checking". */
export function hooksOffReason(path: string, text: string): string | undefined {
  const rows = hookSwitches(path, text).split('\n');
  const off = rows.find((r) =>
    /(?:^|\.)(?:disableAllHooks|allowManagedHooksOnly)=true$|(?:^|\.)enabled=false$|^env .*\.(?:AVP_(?:DISABLE|SUBAGENT)|QWEN_CODE_SAFE_MODE|QWEN_CODE_SIMPLE)=(?!0|false|$)|type=(?!command|undefined)|^hooks\s*=\s*false|codex_hooks\s*=\s*false|^enabledPlugins\.avp@\S*=false$/i.test(
      r,
    ),
  );
  return off ?? rows.find(listsAvpHook);
}

/** A `disabled` list (Gemini CLI's and Qwen Code's `hooksConfig.disabled`) naming avp's hook command: it is skipped. */
function listsAvpHook(row: string): boolean {
  const m = /(?:^|\.)disabled=(\[.*\])$/.exec(row);
  if (!m) return false;
  try {
    return (JSON.parse(m[1]!) as unknown[]).some(isAvpHookCommand);
  } catch {
    return false;
  }
}

/**
 * Why the agent may no longer run avp's hooks given this settings file as it is now; undefined when they run.
 * `hadEntries`: the file held avp's entries before (their absence now is news; a file that never had them may still
 * switch every hook off, `disableAllHooks` in `.claude/settings.local.json` beside avp in `settings.json`).
 */
export function hooksOff(file: { path: string }, hadEntries = false): string | undefined {
  let text: string;
  try {
    text = readRegularText(file.path);
  } catch {
    return 'the file cannot be read';
  }
  if (!/\.toml$/i.test(file.path) && !avpHookEntries(text) && hadEntries) return "avp's hook entries were removed";
  // Every agent but Factory Droid (whose hooks.json is keyed by event) runs only the events under `"hooks"`.
  const droid = /[/\\]\.factory[/\\]hooks\.json$/.test(file.path);
  const moved = hookSwitches(file.path, text)
    .split('\n')
    .find((r) => r.startsWith('entry ') && !droid && !r.startsWith('entry hooks.'));
  if (moved) return `avp's hook entries were moved out of "hooks" (${moved.slice(6)})`;
  const off = hooksOffReason(file.path, text);
  return off ? `it now has ${off.replace(/^(?:env|entry) /, '')}` : undefined;
}
