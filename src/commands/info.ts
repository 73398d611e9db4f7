import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: {
    name: 'info',
    description:
      "Show a registry package: description, versions, latest, integrity (offline or unreachable: avp's catalog)",
  },
  args: {
    name: { type: 'positional', required: true, description: 'Package name' },
    registry: { type: 'string', description: 'Registry base URL' },
    offline: { type: 'boolean', description: 'Only the catalog embedded in avp; no network' },
    json: {
      type: 'boolean',
      description: 'Print {detail, latest} as JSON on stdout ({source: "catalog", detail} when offline)',
    },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ clientFor }, { printJson }, { findProjectRoot }, { cleanText }, offline] = await Promise.all([
        import('../registry-client/credentials.ts'),
        import('../registry-client/cli-args.ts'),
        import('../paths.ts'),
        import('../registry-client/http.ts'),
        import('./offline-catalog.ts'),
      ]);
      const projectRoot = findProjectRoot(process.cwd());
      const print = (lines: Array<string | undefined>): void => {
        process.stdout.write(`${lines.flatMap((l) => (l === undefined ? [] : [cleanText(l)])).join('\n')}\n`);
      };
      let failure: unknown;
      if (!args.offline) {
        try {
          const client = await clientFor({ registry: args.registry, projectRoot });
          const { waitingNotice } = await import('../registry-client/progress.ts');
          const waiting = waitingNotice(`asking ${client.base}`, { json: !!args.json });
          const detail = await client.detail(args.name).finally(() => waiting.done());
          const latest = detail.latest ? await client.latest(args.name).catch(() => undefined) : undefined;
          const { testsLine, readVersionTests } = await import('../registry-client/version-tests.ts');
          if (args.json) return printJson({ detail, latest });
          return print([
            `${detail.name}@${detail.latest}${detail.type && detail.type !== 'validator' ? ` (${detail.type}: not installable by avp)` : ''}`,
            detail.description,
            '',
            `author:    ${detail.author ?? ''}`,
            detail.license ? `license:   ${detail.license}` : undefined,
            detail.tags?.length ? `tags:      ${detail.tags.join(', ')}` : undefined,
            `versions:  ${detail.versions.join(', ')}`,
            `downloads: ${detail.downloads}`,
            latest ? `published: ${latest.publishedAt}` : undefined,
            latest ? `size:      ${latest.size} bytes` : undefined,
            latest?.integrity ? `integrity: ${latest.integrity}` : undefined,
            latest?.tests !== undefined ? `tests:     ${testsLine(readVersionTests(latest.tests))}` : undefined,
            '',
            `install:   avp add ${detail.name}`,
          ]);
        } catch (e) {
          const { withNameSuggestion } = await import('./validator-names.ts');
          if (!offline.registryDown(e)) throw await withNameSuggestion(e, args.name, projectRoot, 'info');
          failure = e;
        }
      }
      const pkg = (await offline.catalogPackages()).find((p) => p.name === args.name);
      if (!pkg) {
        const [{ AvpError }, { withNameSuggestion }] = await Promise.all([
          import('../errors.ts'),
          import('./validator-names.ts'),
        ]);
        const why = failure ? `the registry could not be reached: ${(failure as Error).message}` : 'offline';
        const e = new AvpError('not-in-catalog', `${args.name} is not in avp's embedded catalog (${why})`, {
          fix: 'list the catalog with `avp list --available`, or retry when the registry can be reached',
        });
        throw await withNameSuggestion(e, args.name, projectRoot, 'info');
      }
      (await (await import('../logger.ts')).logger()).warn(offline.fallbackNote(failure));
      if (args.json) return printJson({ source: 'catalog', detail: pkg });
      print([
        `${pkg.name}@${pkg.version} (in the catalog embedded in avp)`,
        pkg.description,
        '',
        pkg.author ? `author:    ${pkg.author}` : undefined,
        pkg.license ? `license:   ${pkg.license}` : undefined,
        pkg.tags.length ? `tags:      ${pkg.tags.join(', ')}` : undefined,
        `trigger:   ${pkg.trigger}`,
        `severity:  ${pkg.severity}`,
        `judge:     ${pkg.judge === 'script' ? 'script (deterministic, offline)' : 'LLM'}`,
        pkg.recommended ? 'installed by `avp init` (recommended)' : undefined,
        '',
        `install:   avp add ${pkg.name}${args.offline ? ' --offline' : ''}`,
      ]);
    });
  },
});
