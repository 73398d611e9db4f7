/**
 * `avp init`: install avp's hook into each agent's hook settings (the detected agents, `--agent a,b` or `--all`;
 * merged, idempotent, JSONC-tolerant), create `.avp/` (validators/ and a .gitignore for state, logs and caches) and
 * install the recommended offline validators.
 */
import { defineCommand } from 'citty';
import { AGENT_NAMES } from '../agents/index.ts';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'init',
    description:
      "Install avp's hook into your coding agents' hook settings (Claude Code, Codex, Gemini CLI, Cursor and every other agent --agent lists) and set up .avp/ in the project",
  },
  args: {
    project: {
      type: 'boolean',
      description:
        "Write the project's files (.claude/settings.json, .codex/hooks.json, …; shared with the team: `avp hook`, needs avp on PATH; the default)",
    },
    local: {
      type: 'boolean',
      description:
        'Write .claude/settings.local.json (this machine only; the default when avp is not on PATH: its absolute path)',
    },
    user: {
      type: 'boolean',
      description:
        "Write the user's files (~/.claude/settings.json, ~/.codex/hooks.json, …; every project of this user)",
    },
    agent: {
      type: 'string',
      // From the adapter table, so the help names every agent `--agent` accepts.
      description: `The agents to install into, comma-separated: ${AGENT_NAMES.join(', ')} (default: the agents this project or user has, else claude)`,
    },
    all: { type: 'boolean', description: 'Install into every agent avp supports, found or not' },
    validators: {
      type: 'boolean',
      description: 'Install the recommended offline validators (--no-validators skips them)',
      default: true,
    },
    command: {
      type: 'string',
      description:
        "The hook command to write instead of `avp hook --agent claude` (avp on PATH) or this binary's absolute path",
    },
    'git-hook': {
      type: 'boolean',
      description:
        'Instead: install a git pre-commit hook running `avp check --staged` (follows core.hooksPath; husky-aware; ' +
        'never replaces a hook avp did not write)',
    },
    managed: {
      type: 'boolean',
      description:
        "As root: install avp where the agent's user cannot write — /etc/avp (binary, validators, policy), Claude " +
        "Code's managed settings (only managed hooks run), Codex's requirements, Copilot CLI's policy hooks, Gemini " +
        "CLI's and Qwen Code's system settings (--agent picks among them); see docs/hook-mode.md",
    },
    'dry-run': { type: 'boolean', description: 'Show what would change; write nothing' },
    json: { type: 'boolean', description: 'Print what was done as JSON on stdout' },
  },
  run: ({ args }) =>
    runCommand(async () => {
      if (args.managed) {
        const { initManaged, formatManaged } = await import('../agent-setup/managed-install.ts');
        const r = await initManaged({
          cwd: process.cwd(),
          env: process.env,
          validators: args.validators !== false,
          ...(args.agent !== undefined ? { agent: args.agent } : {}),
        });
        process.stdout.write(args.json ? `${JSON.stringify(r, null, 2)}\n` : formatManaged(r));
        return;
      }
      if (args['git-hook']) {
        if (args.user || args.local || args.project) {
          const { AvpError } = await import('../errors.ts');
          throw new AvpError(
            'usage',
            '--git-hook installs a git hook, not Claude settings: no scope flag goes with it',
            {
              fix: 'run avp init --git-hook on its own, and avp init --user/--local/--project separately',
            },
          );
        }
        // Its own path: the git hook is no agent setting and no control file; Claude settings are left alone.
        const [{ installGitHook, formatGitHook }, { findProjectRoot }] = await Promise.all([
          import('../git-hook.ts'),
          import('../paths.ts'),
        ]);
        const r = installGitHook({
          projectRoot: findProjectRoot(process.cwd()),
          command: args.command,
          dryRun: !!args['dry-run'],
        });
        process.stdout.write(args.json ? `${JSON.stringify(r, null, 2)}\n` : formatGitHook(r));
        return;
      }
      const { runInit, formatInit } = await import('../agent-setup/init.ts');
      const result = await runInit({
        scope: args.user ? 'user' : args.local ? 'local' : 'project',
        scopes: [args.project, args.local, args.user].filter(Boolean).length,
        scopeGiven: Boolean(args.project || args.local || args.user),
        ...(args.agent !== undefined ? { agent: args.agent } : {}),
        all: !!args.all,
        validators: args.validators !== false,
        command: args.command,
        dryRun: !!args['dry-run'],
        cwd: process.cwd(),
      });
      // `avp init` is an acceptance: the files it wrote — and, the first time, everything avp reads — are accepted.
      const waiting = result.dryRun
        ? undefined
        : (await import('../trust/accept.ts')).acceptWrittenPaths(result.projectRoot, process.env, [
            ...result.agents.map((a) => a.settings.path),
            ...(result.cleaned?.changed ? [result.cleaned.path] : []),
            ...result.installed.map((v) => v.dir),
          ]);
      if (args.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else process.stdout.write(formatInit(result));
      if (waiting) process.stderr.write(`${waiting}\n`);
    }),
});
