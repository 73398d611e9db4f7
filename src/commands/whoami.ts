import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

export default defineCommand({
  meta: { name: 'whoami', description: 'Show who the registry token belongs to (checked with the registry)' },
  args: {
    registry: { type: 'string', description: 'Registry base URL' },
    json: { type: 'boolean', description: 'Print {registry, email, name, tokenSource} as JSON on stdout' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [{ registryUrl, tokenFor, notLoggedIn }, { verifyToken }, { printJson }, { findProjectRoot }] =
        await Promise.all([
          import('../registry-client/credentials.ts'),
          import('../registry-client/login.ts'),
          import('../registry-client/cli-args.ts'),
          import('../paths.ts'),
        ]);
      const base = await registryUrl({ registry: args.registry, projectRoot: findProjectRoot(process.cwd()) });
      const token = tokenFor(base);
      if (!token) throw notLoggedIn(base);
      const who = await verifyToken(base, token.token);
      const tokenSource =
        token.source === 'env'
          ? (token.variable ?? 'AVP_TOKEN')
          : token.source === 'reference-file'
            ? `${token.file} (the reference client's login)`
            : 'credentials file';
      if (args.json) return printJson({ registry: base, email: who.email, name: who.name, tokenSource });
      process.stdout.write(
        `${who.name ?? '?'}${who.email ? ` <${who.email}>` : ''} on ${base} (token from ${tokenSource})\n`,
      );
    });
  },
});
