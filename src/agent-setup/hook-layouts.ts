/**
 * avp's hook in agents whose hook configuration is not Claude Code's matcher groups: flat entries in a JSON file of
 * the agent's own shape (Cursor, Windsurf, Copilot, Kiro) and files avp owns outright (Cline's executable per event,
 * OpenCode's and Amp's plugin). The same promises as hook-settings.ts: every other byte of a shared file stays, a
 * second install changes nothing, removal gives back what was there (a file avp created goes away), a file that
 * does not parse — or a foreign file where avp's would go — is refused before anything changes.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { AvpError } from '../errors.ts';
import { OWNED_MARKER } from '../trust/control-files.ts';
import {
  appendMember,
  assertWritable,
  avpEventsIn,
  formatting,
  installHooks,
  isAvpHookCommand,
  planInstall,
  planRemove,
  readSettings,
  removeAt,
  removeHooks,
  writeSettings,
  type HookChange,
  type SettingsFile,
} from './hook-settings.ts';
import type { AgentAdapter, InstallLayout, OwnedFile } from '../agents/types.ts';

export { OWNED_MARKER };

type Flat = Extract<InstallLayout, { kind: 'flat' }>;
type Owned = Extract<InstallLayout, { kind: 'owned' }>;
type Entry = Record<string, unknown>;

/** The command of a flat entry (Copilot's is under `bash`). */
function commandOf(entry: unknown): unknown {
  const e = entry as Entry | null;
  return e && typeof e === 'object' ? (e.command ?? e.bash) : undefined;
}

function eventsOf(value: Record<string, unknown>): Record<string, unknown> {
  const hooks = value.hooks;
  return hooks && typeof hooks === 'object' && !Array.isArray(hooks) ? (hooks as Record<string, unknown>) : {};
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Adds or updates avp's flat entry per event; adds the top-level keys the file must have. */
export function planFlatInstall(
  file: SettingsFile,
  layout: Flat,
  command: string,
  timeout: number,
  events: readonly string[],
): { text: string; added: string[]; updated: string[] } {
  let text = file.text;
  const fmt = formatting(text);
  for (const [key, v] of Object.entries(layout.top ?? {})) {
    const value = parse(text, [], { allowTrailingComma: true }) as Entry;
    if (value[key] === undefined) text = appendMember(text, [], v, fmt, key);
  }
  const added: string[] = [];
  const updated: string[] = [];
  for (const event of events) {
    const want = layout.entry(command, timeout, event);
    const value = parse(text, [], { allowTrailingComma: true }) as Entry;
    const hooks = value.hooks as Entry | undefined;
    const list = Array.isArray(hooks?.[event]) ? (hooks![event] as unknown[]) : undefined;
    const at = list?.findIndex((e) => isAvpHookCommand(commandOf(e))) ?? -1;
    if (at >= 0) {
      if (same(list![at], want)) continue;
      text = applyEdits(text, modify(text, ['hooks', event, at], want, { formattingOptions: fmt }));
      updated.push(event);
      continue;
    }
    if (list) text = appendMember(text, ['hooks', event], want, fmt);
    else if (hooks) text = appendMember(text, ['hooks'], [want], fmt, event);
    else text = appendMember(text, [], { [event]: [want] }, fmt, 'hooks');
    added.push(event);
  }
  return { text, added, updated };
}

/** Removes avp's flat entries (an emptied event and `hooks` go too). */
export function planFlatRemove(file: SettingsFile): { text: string; removed: string[] } {
  let text = file.text;
  const removed: string[] = [];
  for (;;) {
    const value = parse(text, [], { allowTrailingComma: true }) as Entry;
    const hooks = eventsOf(value ?? {});
    let path: Array<string | number> | undefined;
    for (const [event, list] of Object.entries(hooks)) {
      if (!Array.isArray(list)) continue;
      const at = list.findIndex((e) => isAvpHookCommand(commandOf(e)));
      if (at < 0) continue;
      removed.push(event);
      if (list.length > 1) path = ['hooks', event, at];
      else if (Object.keys(hooks).length > 1) path = ['hooks', event];
      else path = ['hooks'];
      break;
    }
    if (!path) break;
    text = removeAt(text, path);
  }
  return { text, removed };
}

/** True when a file is one avp wrote whole (its marker and its hook command). */
export function isOwnedHookText(text: string): boolean {
  return text.includes(OWNED_MARKER) && text.split('\n').some((l) => isAvpHookCommand(l.replace(/^[#/\s*]+/, '')));
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The files avp would write for an owned layout, each refused when a foreign file is in its place. */
function ownedPlan(agent: AgentAdapter, layout: Owned, path: string, command: string, timeout: number): OwnedFile[] {
  const files = layout.files(command, timeout, path);
  for (const f of files) {
    if (!existsSync(f.path)) continue;
    const text = readText(f.path);
    if (!statSync(f.path).isFile() || text === undefined || !isOwnedHookText(text)) {
      throw new AvpError('settings-foreign', `${f.path} exists and is not avp's; avp did not change it`, {
        file: f.path,
        fix: `${agent.displayName} runs that file as its hook: add \`${command}\` to it yourself, or move it away and run \`avp init\` again`,
      });
    }
  }
  return files;
}

/** Refuses, before anything changes, a hook file avp could not install into or remove from. */
export function checkHookFile(agent: AgentAdapter, path: string): void {
  const layout = agent.install.layout;
  if (layout?.kind === 'owned') ownedPlan(agent, layout, path, 'avp hook', 0);
  else readSettings(path);
  if (layout?.kind === 'top' && !existsSync(path)) checkSettingsFallback(agent, path);
}

/**
 * Droid reads the `hooks` key of the `settings.json` beside `hooks.json` only while `hooks.json` is absent: creating
 * it would switch the user's hooks there off without a word, so avp refuses and says how to move them.
 */
function checkSettingsFallback(agent: AgentAdapter, path: string): void {
  const settings = join(dirname(path), 'settings.json');
  const hooks = readSettings(settings).value.hooks as Entry | undefined;
  if (!hooks || Object.keys(hooks).length === 0) return;
  throw new AvpError(
    'settings-fallback',
    `${settings} holds hooks that ${agent.displayName} reads only while ${basename(path)} does not exist; ` +
      'avp did not create it',
    {
      file: settings,
      fix: `move the events under "hooks" in ${settings} to the top level of ${path} (${agent.displayName}'s own \`/hooks\` does so when it saves), then run \`avp init\` again`,
    },
  );
}

/** `avp init` for one agent: its layout's install, written unless `dryRun`. */
export function installFor(
  agent: AgentAdapter,
  path: string,
  command: string,
  timeout: number,
  dryRun: boolean,
): HookChange {
  const layout = agent.install.layout;
  const events = agent.install.events;
  if (!layout) return installHooks(path, command, timeout, events, dryRun);
  const change: HookChange = {
    path,
    created: !existsSync(path),
    changed: false,
    added: [],
    updated: [],
    removed: [],
  };
  if (layout.kind === 'top') {
    const file = readSettings(path);
    // An older avp nested its entries under "hooks", which Droid never read: they move to the top level.
    const unnested = planRemove(file);
    const plan = planInstall({ ...file, text: unnested.text }, command, timeout, events, 'top');
    change.changed = plan.text !== file.text;
    change.added = plan.added.filter((e) => !unnested.removed.includes(e));
    change.updated = [...new Set([...plan.updated, ...unnested.removed])];
    if (change.changed && !dryRun) writeSettings(path, plan.text);
    return change;
  }
  if (layout.kind === 'flat') {
    const file = readSettings(path);
    const plan = planFlatInstall(file, layout, command, timeout, events);
    change.changed = plan.text !== file.text;
    change.added = plan.added;
    change.updated = plan.updated;
    if (change.changed && !dryRun) writeSettings(path, plan.text);
    return change;
  }
  for (const f of ownedPlan(agent, layout, path, command, timeout)) {
    const before = readText(f.path);
    if (before === f.text) continue;
    (before === undefined ? change.added : change.updated).push(f.event ?? basename(f.path));
    change.changed = true;
    if (dryRun) continue;
    assertWritable(f.path);
    writeSettings(f.path, f.text);
    if (f.mode !== undefined) chmodSync(f.path, f.mode);
  }
  return change;
}

/** `avp deinit` for one agent: only avp's entries or files go; a flat file avp created and emptied goes too. */
export function removeFor(agent: AgentAdapter, path: string, dryRun: boolean): HookChange {
  const layout = agent.install.layout;
  if (!layout) return removeHooks(path, dryRun);
  const change: HookChange = { path, created: false, changed: false, added: [], updated: [], removed: [] };
  if (layout.kind === 'top') {
    const file = readSettings(path);
    if (!file.exists) return change;
    const nested = planRemove(file);
    const plan = planRemove({ ...file, text: nested.text }, 'top');
    change.removed = [...nested.removed, ...plan.removed];
    change.changed = plan.text !== file.text;
    if (!change.changed || dryRun) return change;
    // An emptied hooks.json goes: while it exists, Droid ignores the hooks in the matching settings.json.
    const left = parse(plan.text, [], { allowTrailingComma: true }) as Entry;
    if (Object.keys(left ?? {}).length === 0) rmSync(path, { force: true });
    else writeSettings(path, plan.text);
    return change;
  }
  if (layout.kind === 'flat') {
    const file = readSettings(path);
    if (!file.exists) return change;
    const plan = planFlatRemove(file);
    change.removed = plan.removed;
    change.changed = plan.text !== file.text;
    if (!change.changed || dryRun) return change;
    const left = parse(plan.text, [], { allowTrailingComma: true }) as Entry;
    // A file holding nothing but the keys avp adds was avp's own (`.github/hooks/avp.json`): it goes.
    if (same(Object.keys(left ?? {}).sort(), Object.keys(layout.top ?? {}).sort())) rmSync(path, { force: true });
    else writeSettings(path, plan.text);
    return change;
  }
  for (const f of ownedFiles(path)) {
    change.removed.push(eventOfOwned(agent, f));
    change.changed = true;
    if (!dryRun) rmSync(f, { force: true });
  }
  return change;
}

/** avp's own files at an owned layout's path (the file itself, or the folder's files). */
export function ownedFiles(path: string): string[] {
  let candidates: string[] = [];
  try {
    candidates = statSync(path).isDirectory() ? readdirSync(path).map((n) => join(path, n)) : [path];
  } catch {
    return [];
  }
  return candidates.filter((p) => {
    const text = readText(p);
    return text !== undefined && isOwnedHookText(text);
  });
}

function eventOfOwned(agent: AgentAdapter, file: string): string {
  const name = basename(file).replace(/\.[a-z0-9]+$/i, '');
  return agent.install.events.includes(name) ? name : agent.install.events.join(', ');
}

/** The agent events avp's hook covers in `path`, for `avp doctor` (undefined: use the JSON reader). */
export function installedEvents(agent: AgentAdapter, path: string): string[] | undefined {
  const layout = agent.install.layout;
  if (!layout) return undefined;
  if (layout.kind === 'owned') {
    const files = ownedFiles(path);
    const single = files.length === 1 && !files[0]!.startsWith(`${path}/`);
    return single ? [...agent.install.events] : files.map((f) => eventOfOwned(agent, f));
  }
  const value = readSettings(path).value;
  if (layout.kind === 'top') return avpEventsIn(value, 'top');
  return Object.entries(eventsOf(value))
    .filter(([, list]) => Array.isArray(list) && list.some((e) => isAvpHookCommand(commandOf(e))))
    .map(([event]) => event);
}
