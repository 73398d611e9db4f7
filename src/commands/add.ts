import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'add',
    description:
      'Install a validator: a registry name[@version|@range], catalog:name, ./dir, a git URL, owner/repo[#ref] or an https .zip/.tar.gz URL',
  },
  args: {
    spec: {
      type: 'positional',
      required: true,
      description:
        "What to install (several may be given): no-secrets, no-secrets@^1.2, catalog:no-secrets (avp's embedded copy), ./my-validator, owner/repo#v1, https://…/x.zip",
    },
    user: { type: 'boolean', description: 'Install for the user: ~/.avp/validators (default)' },
    project: { type: 'boolean', description: 'Install for the project: <project>/.avp/validators' },
    registry: {
      type: 'string',
      description: 'Registry base URL (default: AVP_REGISTRY_URL, config registry.url, https://registry.mirdan.ai)',
    },
    offline: { type: 'boolean', description: 'Only the catalog embedded in avp; no network' },
    force: {
      type: 'boolean',
      description:
        'Replace a same-named validator that avp did not install or that you edited; install an LLM validator even when no judge can evaluate it',
    },
    json: { type: 'boolean', description: 'Print the result as JSON on stdout' },
    quiet: { type: 'boolean', description: 'Print nothing but errors' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [
        { addValidator, prepareAdd },
        { scopeOf, applyQuiet, printJson },
        { terminalProgress },
        { findProjectRoot },
        { logger },
      ] = await Promise.all([
        import('../registry-client/install.ts'),
        import('../registry-client/cli-args.ts'),
        import('../registry-client/progress.ts'),
        import('../paths.ts'),
        import('../logger.ts'),
      ]);
      applyQuiet(args);
      const scope = scopeOf(args);
      const specs: string[] = (args._ as string[] | undefined)?.length ? (args._ as string[]) : [args.spec];
      const projectRoot = findProjectRoot(process.cwd());
      const log = await logger();
      const suggest = (spec: string) => async (e: unknown) => {
        const { withNameSuggestion } = await import('./validator-names.ts');
        throw await withNameSuggestion(e, spec, projectRoot, 'add');
      };
      const addOptions = {
        scope,
        projectRoot,
        cwd: process.cwd(),
        registry: args.registry,
        offline: args.offline,
        force: args.force,
      };
      // Each package is downloaded once: the judge check reads the same bytes that are then installed.
      const prepared = [];
      for (const spec of specs) {
        const progress = terminalProgress(`downloading ${spec}`, args);
        const ready = await prepareAdd(spec, { ...addOptions, progress: progress.onProgress })
          .finally(() => progress.done())
          .catch(suggest(spec));
        prepared.push({ spec, ready });
      }
      // An LLM validator without a judge would block every event it matches: refused before anything is installed.
      if (!args.force) {
        const { refuseWithoutJudge } = await import('../judges/add-check.ts');
        const check = { projectRoot, cwd: process.cwd(), env: process.env, scope };
        for (const { spec, ready } of prepared)
          await refuseWithoutJudge([{ spec, fetched: ready.fetched }], check).catch(suggest(spec));
      }
      const results = [];
      for (const { spec, ready } of prepared) {
        const result = await addValidator(spec, addOptions, ready).catch(suggest(spec));
        const notRun = await toolRulesOf(result.dir, scope);
        results.push(notRun.length ? { ...result, notRun } : result);
        if (notRun.length) log.info(toolRulesNote(result.name, notRun));
        const from = result.replaced && result.replaced !== result.version ? ` (was ${result.replaced})` : '';
        if (result.fallback) {
          log.warn(
            `${result.fallback.reason}: installed ${result.name}@${result.version} from avp's embedded catalog instead ` +
              `of the registry's package; \`avp update ${result.name}\` asks the registry again`,
          );
        }
        log.success(`added ${result.name}@${result.version}${from} from ${result.source} → ${result.dir}`);
        if (ready.fetched.tests !== undefined) {
          const { testsLine, readVersionTests } = await import('../registry-client/version-tests.ts');
          log.info(`${result.name}@${result.version} tests: ${testsLine(readVersionTests(ready.fetched.tests))}`);
        }
        if (result.shadowedBy) {
          log.warn(
            `the project has its own ${result.name} (${result.shadowedBy}); it wins over this user install in this project`,
          );
        }
      }
      if (args.force) {
        const { missingJudgeWarning } = await import('../judges/add-check.ts');
        const warning = await missingJudgeWarning(
          results.map((r) => r.dir),
          { projectRoot, cwd: process.cwd(), env: process.env, scope },
        );
        if (warning) log.warn(warning);
      }
      // The user ran this: what it installed is accepted (inside an agent it waits for `avp accept`).
      const { acceptWrittenPaths } = await import('../trust/accept.ts');
      const { lockfilePath } = await import('../registry-client/lockfile.ts');
      const written = [...results.map((r) => r.dir), lockfilePath(scope, projectRoot)];
      const waiting = acceptWrittenPaths(projectRoot, process.env, written);
      if (waiting) log.warn(waiting);
      if (args.json) printJson(results.length === 1 ? results[0] : results);
    });
  },
});

/** The reference tool rules a package brought, which avp loads and never runs (ids with the program they name). */
async function toolRulesOf(dir: string, scope: 'user' | 'project'): Promise<Array<{ id: string; why: string }>> {
  const { loadValidatorsAt } = await import('../validator/load.ts');
  return loadValidatorsAt(dir, scope)
    .validators.filter((v) => v.notRun)
    .map((v) => ({ id: v.id, why: v.notRun! }));
}

/** Said at install: which rules will not run, and what runs in their place. */
function toolRulesNote(name: string, notRun: Array<{ id: string; why: string }>): string {
  const programs = [...new Set(notRun.map((t) => /\(([^)]+)\)$/.exec(t.why)?.[1]).filter(Boolean))];
  return (
    `${name}: ${notRun.length} tool rule${notRun.length === 1 ? '' : 's'} not run (${notRun.map((t) => t.id).join(', ')})` +
    `${programs.length ? `; they run ${programs.join(', ')}` : ''}. avp runs no tool programs: the prompt rules they ` +
    'supersede run instead, as the reference does when a tool is missing. `avp list` marks them "not run".'
  );
}
