import { defineCommand } from 'citty';
import { AGENT_NAMES } from '../agents/index.ts';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'list',
    description:
      'List the validators (project and user): version, where each came from, whether config disables it, what shadows what, and load errors',
  },
  args: {
    json: {
      type: 'boolean',
      description: 'Print JSON: { validators (version, scope, source, disabled, …), errors, warnings, shadowed }',
    },
    available: {
      type: 'boolean',
      description: 'List the first-party catalog embedded in avp (install with `avp add <name>`)',
    },
    agent: {
      type: 'string',
      description: `Also say which validators never fire on this agent (${AGENT_NAMES.join(', ')}): an event or tool it does not have`,
    },
  },
  run: ({ args }) =>
    runCommand(async () => {
      if (args.available) return listAvailable(Boolean(args.json));
      const [{ discover }, { findProjectRoot, projectValidatorsDir, userValidatorsDir }, view, { originsOf }] =
        await Promise.all([
          import('../validator/discover.ts'),
          import('../paths.ts'),
          import('./list-view.ts'),
          import('../registry-client/origins.ts'),
        ]);
      const projectRoot = findProjectRoot(process.cwd());
      const d = await discover({ projectRoot });
      const origins = originsOf(d.validators, projectRoot, process.env);
      const { disabled, notes } = await disabledBy(projectRoot);
      const ctx = { origins: origins.byId, disabled };
      const never = args.agent !== undefined ? await neverFiresOn(args.agent, d.validators) : undefined;
      if (never?.list.length && !args.json) {
        const { logger } = await import('../logger.ts');
        const log = await logger();
        for (const n of never.list)
          log.warn(
            n.kind === 'instead'
              ? `${n.id} cannot block on ${never.name}: ${n.reason}`
              : `${n.id} never fires on ${never.name}: ${n.reason}`,
          );
      }
      if (origins.problems.length || notes.length) {
        const { logger } = await import('../logger.ts');
        const log = await logger();
        for (const p of [...origins.problems, ...notes]) log.warn(p);
      }
      if (args.json) {
        const json = view.listJson(d, ctx);
        const out = never ? { ...json, agent: never.agent, neverFires: never.list } : json;
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        return;
      }
      const text = view.listText(d, ctx);
      if (text) process.stdout.write(`${text}\n`);
      if (d.warnings.length) {
        const { logger } = await import('../logger.ts');
        (await logger()).warn(
          `${d.warnings.length} warning${d.warnings.length === 1 ? '' : 's'} in validator files: run \`avp lint\` to see them`,
        );
      }
      if (!d.validators.length && !d.errors.length) {
        const { logger } = await import('../logger.ts');
        (await logger()).info(
          `No validators in ${projectValidatorsDir(projectRoot)} or ${userValidatorsDir()}. Create one with \`avp new <name>\`, or see \`avp list --available\`.`,
        );
      }
    }),
});

/** The validators that never fire on the agent named by `--agent` (an unknown name is a usage error). */
async function neverFiresOn(name: string, validators: import('../validator/types.ts').Validator[]) {
  const [{ isAgentName, loadAgent, AGENT_NAMES }, { neverFires }] = await Promise.all([
    import('../agents/index.ts'),
    import('../agent-setup/coverage.ts'),
  ]);
  if (!isAgentName(name)) {
    const [{ AvpError }, { didYouMean }] = await Promise.all([import('../errors.ts'), import('../did-you-mean.ts')]);
    throw new AvpError('usage', `unsupported agent "${name}"${didYouMean(name, AGENT_NAMES)}`, {
      fix: `use --agent with one of ${AGENT_NAMES.join(', ')}`,
    });
  }
  const agent = await loadAgent(name);
  return { agent: agent.name, name: agent.displayName, list: neverFires(validators, agent) };
}

/**
 * Which validators config keeps from running (`disabledValidators` by id or name; the kill switch turns off all).
 * A config file that does not load is said on stderr and disables nothing here: the list still shows what exists.
 */
async function disabledBy(
  projectRoot: string,
): Promise<{ disabled: (v: { id: string; name: string }) => boolean; notes: string[] }> {
  const { loadConfig, isDisabled } = await import('../config/config.ts');
  try {
    const config = await loadConfig({ cwd: process.cwd(), projectRoot, env: process.env });
    const notes = config.disabled ? ['avp is turned off (AVP_DISABLE=1 or `disabled: true`): no validator runs'] : [];
    // What a managed policy refused (a kill switch, a disabled required validator) is said here too.
    notes.push(...(config.policy?.notes ?? []));
    return { disabled: (v) => config.disabled || isDisabled(config, v.id, v.name), notes };
  } catch (e) {
    return { disabled: () => false, notes: [`config not read, so STATUS ignores it: ${(e as Error).message}`] };
  }
}

/** The first-party catalog embedded in the binary (not a source: its validators run only once installed). */
async function listAvailable(json: boolean): Promise<void> {
  const [{ listCatalog }, { table }] = await Promise.all([import('../catalog/index.ts'), import('./list-view.ts')]);
  const items = await listCatalog();
  if (json) {
    process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    return;
  }
  const rows = items.map((i) => [
    i.name,
    i.version,
    i.trigger,
    i.severity,
    i.judge,
    i.recommended ? 'yes' : '',
    i.description,
  ]);
  process.stdout.write(
    `${table(['NAME', 'VERSION', 'TRIGGER', 'SEVERITY', 'JUDGE', 'RECOMMENDED', 'DESCRIPTION'], rows)}\n`,
  );
}
