import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: { name: 'publish', description: 'Lint, pack and upload a validator directory to the registry' },
  args: {
    dir: {
      type: 'positional',
      required: false,
      description: 'The validator directory holding VALIDATOR.md (default: .)',
    },
    'dry-run': { type: 'boolean', description: 'Show what would be uploaded; upload nothing' },
    registry: { type: 'string', description: 'Registry base URL' },
    json: { type: 'boolean', description: 'Print the result as JSON on stdout' },
    quiet: { type: 'boolean', description: 'Print nothing but errors' },
    'allow-failing-tests': {
      type: 'boolean',
      description: "Publish although the package's script cases (tests/) fail; the registry records it",
    },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ preparePublish, uploadPackage }, { applyQuiet, printJson }, { findProjectRoot }, { logger }] =
        await Promise.all([
          import('../registry-client/publish.ts'),
          import('../registry-client/cli-args.ts'),
          import('../paths.ts'),
          import('../logger.ts'),
        ]);
      applyQuiet(args);
      const log = await logger();
      const pack = await preparePublish(args.dir ?? '.');
      for (const w of pack.warnings) log.warn(w);
      const summary = {
        name: pack.manifest.name,
        version: pack.manifest.version,
        files: pack.files,
        size: pack.size,
        integrity: pack.integrity,
      };
      if (!args.json) {
        log.info(`${pack.manifest.name}@${pack.manifest.version} from ${pack.dir}`);
        for (const f of pack.files) process.stderr.write(`  ${f}\n`);
        log.info(`${pack.files.length} files, ${pack.size} bytes, ${pack.integrity}`);
      }
      const { publishTests } = await import('../validator-tests/publish.ts');
      const tests = await publishTests(pack.dir, pack.files, !!args['allow-failing-tests'], process.env);
      if (!args.json && tests) log.info(`tests: ${tests.line}`);
      if (args['dry-run']) {
        if (args.json) printJson({ ...summary, dryRun: true });
        else log.info('dry run: nothing uploaded');
        return;
      }
      // fetch reports no upload progress for a FormData body: one line while it runs, cleared after.
      const showUpload = !args.json && !args.quiet && process.stderr.isTTY;
      if (showUpload) process.stderr.write(`uploading ${Math.ceil(pack.size / 1024)} KiB…`);
      const r = await uploadPackage(pack, {
        registry: args.registry,
        projectRoot: findProjectRoot(process.cwd()),
        ...(tests?.report ? { tests: tests.report } : {}),
      }).finally(() => {
        if (showUpload) process.stderr.write('\r\u001b[K');
      });
      if (args.json) return printJson({ ...summary, ...r });
      log.success(`published ${r.name}@${r.version} to ${r.registry}`);
    });
  },
});
