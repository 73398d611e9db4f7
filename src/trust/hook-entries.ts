/**
 * avp's own entries in an agent's hook settings, as canonical text: what the accepted state compares for hook
 * settings files (the rest of those files is the agent's and the user's business).
 */
import { parseJsonc } from './jsonc.ts';
import { isAvpHookCommand } from './avp-command.ts';

/**
 * avp's hook entries of a settings file as canonical text (event, matcher, command, timeout), sorted. Events are read
 * under `"hooks"` and at the top level (Factory Droid's `hooks.json` is keyed by event name), so an entry moved from
 * one to the other changes nothing here: both places are ones an agent runs.
 */
export function avpHookEntries(text: string): string {
  const value = parseJsonc(text) as Record<string, unknown> | undefined;
  const rows: string[] = [];
  const object = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const hooks = object(value);
  const nested = object(hooks.hooks);
  // Claude Code's switch for installed plugins: `"enabledPlugins": {"avp@avp": false}` turns avp's plugin hooks off.
  for (const [plugin, on] of Object.entries(object(hooks.enabledPlugins))) {
    if (/^avp@/i.test(plugin)) rows.push(JSON.stringify(['enabledPlugins', plugin, on]));
  }
  for (const [event, groups] of [...Object.entries(nested), ...Object.entries(hooks)]) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups as Array<{ matcher?: unknown; hooks?: unknown } & Record<string, unknown>>) {
      for (const h of Array.isArray(g?.hooks) ? (g.hooks as Array<Record<string, unknown>>) : []) {
        if (isAvpHookCommand(h?.command)) rows.push(JSON.stringify([event, g.matcher ?? '', h.command, h.timeout]));
      }
      // A flat entry (Cursor, Windsurf, Copilot's `bash`/`powershell`, Kiro): the whole entry is avp's.
      if (g && !Array.isArray(g.hooks) && [g.command, g.bash, g.powershell].some(isAvpHookCommand))
        rows.push(JSON.stringify([event, g]));
    }
  }
  return rows.sort().join('\n');
}
