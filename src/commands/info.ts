import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: { name: 'info', description: 'Show a registry package: description, versions, latest, integrity' },
  args: {
    name: { type: 'positional', required: true, description: 'Package name' },
    registry: { type: 'string', description: 'Registry base URL' },
    json: { type: 'boolean', description: 'Print {detail, latest} as JSON on stdout' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ clientFor }, { printJson }, { findProjectRoot }] = await Promise.all([
        import('../registry/credentials.ts'),
        import('../registry/cli-args.ts'),
        import('../paths.ts'),
      ]);
      const client = await clientFor({ registry: args.registry, projectRoot: findProjectRoot(process.cwd()) });
      const detail = await client.detail(args.name);
      const latest = detail.latest ? await client.latest(args.name).catch(() => undefined) : undefined;
      if (args.json) return printJson({ detail, latest });
      const lines = [
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
        '',
        `install:   avp add ${detail.name}`,
      ];
      const { cleanText } = await import('../registry/http.ts');
      process.stdout.write(
        `${lines
          .filter((l) => l !== undefined)
          .map((l) => cleanText(l!))
          .join('\n')}\n`,
      );
    });
  },
});
