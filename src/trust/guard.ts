/**
 * The one check avp makes on its own behalf, before any validator: an agent's file tool (Write, Edit, …) may not write
 * avp's own state (the accepted state, caches, session state, credentials) nor change avp's entries in any agent's hook
 * settings (every agent's, and the plugins and hook scripts avp writes whole). Those are denied at PreToolUse /
 * PermissionRequest. Validators and config files are not denied: writing them is a normal request ("write me a
 * validator"), and they only take effect once the user accepts them. A shell command is read before it runs
 * (shell-writes.ts) and refused when it would change a control path; a settings change through a file tool is refused
 * when it moves or switches off avp's hooks or sets avp's environment (hook-switches.ts).
 */
import { readFileSync } from 'node:fs';
import { homedir } from '../os/home.ts';
import { basename, join, relative, sep } from 'node:path';
import { toolKindOf, type HookEvent } from '../protocol/event.ts';
import { avpHome } from '../paths.ts';
import { avpBinaries, controlTable, folding, foldsTo, inside, type Fold } from './control-paths.ts';
import {
  OWNED_MARKER,
  projectHookFiles,
  projectOwnedHookFiles,
  userHookFiles,
  userOwnedHookFiles,
} from './control-files.ts';
import { addedEnvSwitch, ENV_SWITCH_REFUSAL, isAgentEnvFile } from './env-switches.ts';
import { describeSwitchChange, hookSwitches } from './hook-switches.ts';
import { powershellWriteDenial, shellDenial } from './shell-writes.ts';
import { avpHookEntries } from './store.ts';

/** Why a file-tool write to `path` is refused, or undefined when it is allowed. */
function protectedReason(real: string, projectRoot: string, env: NodeJS.ProcessEnv, fold: Fold): string | undefined {
  const home = fold(avpHome(env));
  if (inside(real, home)) {
    const rel = relative(home, real).split(sep);
    if (rel[0] !== 'validators' && !(rel.length === 1 && rel[0] === 'config.json')) return "avp's own state";
  }
  const projectAvp = fold(join(projectRoot, '.avp'));
  for (const owned of ['cache', 'logs', 'trust']) {
    if (inside(real, join(projectAvp, owned))) return "avp's own state";
  }
  return undefined;
}

/**
 * Every agent's hook settings files (project and user) and Codex's `config.toml` (its `hooks` feature): a file tool
 * may edit them, but not avp's entries nor what switches hooks off.
 */
function settingsFiles(projectRoot: string, env: NodeJS.ProcessEnv): string[] {
  const codex = join(env.CODEX_HOME || join(env.HOME || homedir(), '.codex'), 'config.toml');
  const files = [...projectHookFiles(projectRoot), ...userHookFiles(env)].map((f) => f.path);
  return [...files, codex, join(projectRoot, '.codex', 'config.toml')];
}

/**
 * Where Claude Code and Codex keep installed plugins (marketplace copies and caches): a `hooks.json` there may hold
 * avp's plugin hooks, which run in every session.
 */
function pluginRoots(env: NodeJS.ProcessEnv, fold: Fold): string[] {
  const home = env.HOME || homedir();
  return [
    join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'plugins'),
    join(env.CODEX_HOME || join(home, '.codex'), 'plugins'),
  ].map(fold);
}

/** The hook files avp writes whole (plugins, Cline's scripts), project and user. */
function ownedFiles(projectRoot: string, env: NodeJS.ProcessEnv): string[] {
  return [...projectOwnedHookFiles(projectRoot), ...userOwnedHookFiles(env)].map((f) => f.path);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The deny reason for a PreToolUse / PermissionRequest whose file tool would write avp's own state or change avp's
 * hook entries; undefined when the event is allowed to go on to the validators.
 */
export function controlPlaneDenial(event: HookEvent, env: NodeJS.ProcessEnv): string | undefined {
  if (event.event !== 'PreToolUse' && event.event !== 'PermissionRequest') return undefined;
  const fold = folding();
  const command = event.toolInput?.command;
  if (toolKindOf(event) === 'shell' && typeof command === 'string') {
    const denied =
      event.agentTool === 'powershell'
        ? { why: powershellWriteDenial(command), env: false, hides: false }
        : shellDenial(command, event.cwd, env, controlTable(event.projectRoot, env), fold);
    const why = denied?.why;
    if (why && denied.env) return `avp refuses this command before it runs: ${why}. ${ENV_SWITCH_REFUSAL}`;
    if (why && denied.hides)
      return (
        `avp refuses this command before it runs: ${why}. avp learns from git what a shell command and a turn ` +
        "changed, so the agent's edits to those files would go unchecked; only the user marks files that way."
      );
    if (why)
      return (
        `avp refuses this command before it runs: ${why}. Those files decide whether avp checks this agent, and ` +
        "only the user changes them (`avp init` / `avp deinit` in their own terminal). Read them if you need to; don't write them."
      );
  }
  // Listed once per call, on the first file that needs them (most calls never do); folded only where they could be
  // the file (foldsTo).
  let owned: ((folded: string) => boolean) | undefined;
  let settings: ((folded: string) => boolean) | undefined;
  let plugins: string[] | undefined;
  let binaries: ((folded: string) => boolean) | undefined;
  for (const file of event.files) {
    const folded = fold(file.path);
    if ((binaries ??= foldsTo(avpBinaries(env), fold))(folded))
      return (
        `avp refuses this ${event.tool ?? 'file'} change: ${file.relPath} is an avp that agents' hooks run. ` +
        'Leave it alone; the user installs or upgrades avp in their own terminal.'
      );
    const why = protectedReason(folded, event.projectRoot, env, fold);
    if (why) {
      return (
        `avp refuses this ${event.tool ?? 'file'} change: ${file.relPath} is ${why}, which only avp itself writes. ` +
        'Leave it alone; if the user wants avp reset, they run avp commands in their own terminal.'
      );
    }
    if ((owned ??= foldsTo(ownedFiles(event.projectRoot, env), fold))(folded)) {
      const text = readText(file.path);
      // A plugin or hook script avp wrote whole: any change to it is a change to avp's hook.
      if (!text.includes(OWNED_MARKER) || file.after === text) continue;
      return (
        `avp refuses this change to ${file.relPath}: it is avp's hook, which only the user changes ` +
        '(`avp init` / `avp deinit` in their own terminal).'
      );
    }
    if (isAgentEnvFile(folded)) {
      // Judged by content: ordinary lines pass, a line that switches the agents' hooks (or avp) off does not.
      if (file.after === undefined)
        return `avp refuses this change to ${file.relPath}: its result could not be rebuilt to check it for hook switches.`;
      const added = addedEnvSwitch(readText(file.path), file.after);
      if (added) return `avp refuses this change to ${file.relPath}: it sets ${added}. ${ENV_SWITCH_REFUSAL}`;
      continue;
    }
    const pluginHooks =
      basename(folded) === 'hooks.json' && (plugins ??= pluginRoots(env, fold)).some((r) => inside(folded, r));
    if (!pluginHooks && !(settings ??= foldsTo(settingsFiles(event.projectRoot, env), fold))(folded)) continue;
    const text = readText(file.path);
    // An Edit whose result is not known yet: refused here, judged again on its rebuilt result (guardDenial).
    if (file.after === undefined)
      return `avp refuses this change to ${file.relPath}: its result could not be rebuilt to check avp's hooks in it.`;
    const switches = hookSwitches(file.path, text);
    const switched = hookSwitches(file.path, file.after);
    if (switches !== switched)
      return (
        `avp refuses this change to ${file.relPath}: it ${describeSwitchChange(switches, switched)}, which can stop ` +
        "or reroute avp's hooks or change avp's environment; only the user changes that (in their own terminal). " +
        "Edit the other settings without touching hook switches, `env` AVP_* / PATH entries or avp's hook entries."
      );
    if (basename(folded) === 'config.toml') continue; // Codex's config: only its hook switches are avp's business
    const before = avpHookEntries(text);
    const after = typeof file.after === 'string' ? avpHookEntries(file.after) : undefined;
    if (after === before) continue;
    if (after === undefined && !before) continue; // a deleted settings file that had no avp hook to lose
    return (
      `avp refuses this change to ${file.relPath}: it would change avp's hook entries, which only the user changes ` +
      '(`avp init` / `avp deinit` in their own terminal). Edit the other settings without touching the avp hooks.'
    );
  }
  return undefined;
}

/** How long rebuilding an Edit's result for the guard may take (a settings file is small; the hook has its budget). */
const REBUILD_MS = 10_000;

/**
 * `controlPlaneDenial` on the files as they will be. An Edit names only the replaced text, so the result of an edit
 * to a settings file is rebuilt (lazily: only when a refusal hangs on it) before refusing, and an Edit that leaves
 * avp's hook entries as they are goes on like a Write that does. Returns the event with the rebuilt files, for reuse.
 */
export async function guardDenial(
  event: HookEvent,
  env: NodeJS.ProcessEnv,
  startedAt = Date.now(),
): Promise<{ denial?: string; event: HookEvent }> {
  const denial = controlPlaneDenial(event, env);
  if (!denial || !event.files.some((f) => f.after === undefined)) return { denial, event };
  const { completeFileChanges } = await import('../file-changes/complete-files.ts');
  const rebuilt = await completeFileChanges(event, startedAt + REBUILD_MS);
  // A result that could not be rebuilt stays unknown, and an unknown result is refused (fail closed).
  return { denial: controlPlaneDenial(rebuilt, env), event: rebuilt };
}
