/**
 * Where `avp init` puts Claude Code's hook and with which command: the shared `.claude/settings.json` gets the
 * portable `avp hook --agent claude` when avp is on PATH, else this machine's path goes into the unshared
 * `.claude/settings.local.json`; avp must run once per event whatever files already call it.
 */
import { realpathSync } from 'node:fs';
import { AvpError } from '../errors.ts';
import { avpCommandsIn, avpHookCommand, portableHookCommand, type SettingsScope } from './hook-settings.ts';
import type { InitOptions } from './init.ts';
import claude from '../agents/claude/index.ts';

/** Claude Code's settings file of a scope: `.claude/settings.json`, `.claude/settings.local.json`, the user's. */
export function settingsPath(scope: SettingsScope, projectRoot: string, env: NodeJS.ProcessEnv): string {
  return claude.install.path(scope, projectRoot, env);
}

export interface ClaudePlan {
  scope: SettingsScope;
  command: string;
  /** The other project settings file, whose older avp entries go (it is this machine's own file). */
  cleanup?: string;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Where Claude Code's hook goes and with which command. The shared `.claude/settings.json` gets the portable
 * `avp hook --agent claude`, and only when avp is on PATH (else it would fail on this machine); then avp's entries in
 * `.claude/settings.local.json` go, so avp runs once per event. avp not on PATH: this machine's absolute path goes
 * into the unshared `.claude/settings.local.json` instead — refused when the shared file already calls avp.
 */
export function planClaude(
  opts: InitOptions,
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  onPath: string | undefined,
  notes: string[],
): ClaudePlan {
  const given = opts.command?.trim();
  let scope = opts.scope;
  let command = given ? '' : portableHookCommand('claude');
  if (!given && onPath) {
    const self = realpathOr(process.execPath);
    // `npx` puts its temporary copy on PATH for this run only: afterwards `avp hook` would not be found.
    if (/[\\/]_npx[\\/]/.test(onPath)) {
      notes.push(
        'avp runs through npx here, and npx does not keep it on PATH: install it so the hook finds it ' +
          '(npm install -g @avp-cli/avp, or install.sh — see docs/install.md).',
      );
    } else if (realpathOr(onPath) !== self && !/\.[cm]?[jt]s$/.test(Bun.main))
      notes.push(`avp on PATH is ${onPath}, not this avp (${self}): the hook runs that one.`);
  } else if (!given) {
    command = avpHookCommand('claude');
    if (scope === 'project') {
      if (opts.scopeGiven) {
        throw new AvpError('init-not-on-path', 'avp is not on PATH, so a shared hook (`avp hook`) would not run here', {
          fix: `put avp on PATH (e.g. ln -s ${process.execPath} ~/.local/bin/avp) and run \`avp init\` again; or write this machine's path into the unshared file: avp init --local`,
        });
      }
      scope = 'local';
      notes.push(
        "avp is not on PATH, so this machine's path went into .claude/settings.local.json (not shared). Put avp on " +
          'PATH and run `avp init` again to share the hook with your team through .claude/settings.json.',
      );
    }
  }
  const shared = settingsPath('project', projectRoot, env);
  const local = settingsPath('local', projectRoot, env);
  if (scope === 'local' && !given) {
    const other = avpCommandsIn(shared).filter((c) => c !== command);
    if (other.length) {
      throw new AvpError(
        'init-twice',
        `${shared} already runs avp (\`${other[0]}\`); a second entry in settings.local.json would run avp twice per event`,
        {
          fix: onPath
            ? 'nothing to do: the shared entry runs avp on this machine'
            : `the shared entry needs avp on PATH: put it there (e.g. ln -s ${process.execPath} ~/.local/bin/avp) and restart the agent`,
        },
      );
    }
  }
  const plan: ClaudePlan = { scope, command };
  if (scope === 'project' && !given && avpCommandsIn(local).some((c) => c !== command)) plan.cleanup = local;
  return plan;
}

/** avp's commands per Claude Code settings file once the plan is applied: more than one distinct one runs avp twice. */
export function twiceNote(plan: ClaudePlan, projectRoot: string, env: NodeJS.ProcessEnv): string | undefined {
  const files = (['project', 'local', 'user'] as const).map((s) => settingsPath(s, projectRoot, env));
  const target = settingsPath(plan.scope, projectRoot, env);
  const rows = files.flatMap((f) =>
    f === target ? [[f, plan.command]] : f === plan.cleanup ? [] : avpCommandsIn(f).map((c) => [f, c]),
  );
  if (new Set(rows.map((r) => r[1])).size < 2) return undefined;
  return (
    `avp runs more than once per event here: ${rows.map(([f, c]) => `${f} runs \`${c}\``).join('; ')}. Claude Code ` +
    'runs identical commands once: with avp on PATH, `avp init` in each of those scopes writes the same command ' +
    '(or `avp deinit --user` removes the user-wide one).'
  );
}
