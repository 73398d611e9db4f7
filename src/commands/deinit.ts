/** `avp deinit`: remove avp's hook entries from the agents' hook settings, leaving everything else as it was. */
import { defineCommand } from 'citty';
import type { SettingsScope } from '../agent-setup/hook-settings.ts';
import { AGENT_NAMES } from '../agents/index.ts';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'deinit',
    description: "Remove avp's hook entries from the agents' hook settings (nothing else is touched)",
  },
  args: {
    project: {
      type: 'boolean',
      description: "From the project's shared files (.claude/settings.json, .codex/hooks.json, …)",
    },
    local: { type: 'boolean', description: 'From .claude/settings.local.json (with --project, the default)' },
    user: { type: 'boolean', description: "From the user's files (~/.claude/settings.json, ~/.codex/hooks.json, …)" },
    all: { type: 'boolean', description: 'From the project, local and user files' },
    agent: {
      type: 'string',
      description: `Only these agents (comma-separated: ${AGENT_NAMES.join(', ')}); default: every agent`,
    },
    managed: { type: 'boolean', description: 'As root: remove what `avp init --managed` installed' },
    'dry-run': { type: 'boolean', description: 'Show what would be removed; write nothing' },
    json: { type: 'boolean', description: 'Print what was done as JSON on stdout' },
  },
  run: ({ args }) =>
    runCommand(async () => {
      if (args.managed) {
        const { deinitManaged, formatManaged } = await import('../agent-setup/managed-install.ts');
        const r = await deinitManaged(args.agent);
        process.stdout.write(args.json ? `${JSON.stringify(r, null, 2)}\n` : formatManaged(r));
        return;
      }
      const { runDeinit, formatDeinit } = await import('../agent-setup/init.ts');
      const picked: SettingsScope[] = args.all
        ? ['project', 'local', 'user']
        : (['project', 'local', 'user'] as const).filter((s) => args[s]);
      const result = await runDeinit({
        // By default, wherever a project's `avp init` puts the hook: the shared file, or the local one when avp was
        // not on PATH. The user's files serve every project, so they need --user (the result names them).
        scopes: picked.length ? picked : ['project', 'local'],
        ...(args.agent !== undefined ? { agent: args.agent } : {}),
        cwd: process.cwd(),
        dryRun: !!args['dry-run'],
      });
      // The user ran this: the hooks it removed are accepted as gone (inside an agent it waits for `avp accept`).
      const { findProjectRoot } = await import('../paths.ts');
      const { acceptWrittenPaths } = await import('../trust/accept.ts');
      const changed = result.dryRun ? [] : result.files.filter((f) => f.changed).map((f) => f.path);
      const waiting = acceptWrittenPaths(findProjectRoot(process.cwd()), process.env, changed);
      if (waiting) process.stderr.write(`${waiting}\n`);
      if (args.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else process.stdout.write(formatDeinit(result));
    }),
});
