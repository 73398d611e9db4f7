import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

/** Opens a URL with the platform's opener when there is one; false when none could be started. */
async function openBrowser(url: string): Promise<boolean> {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? undefined : 'xdg-open';
  const bin = opener ? Bun.which(opener) : undefined;
  if (!bin) return false;
  try {
    Bun.spawn([bin, url], { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' }).unref();
    return true;
  } catch {
    return false;
  }
}

export default defineCommand({
  meta: {
    name: 'login',
    description: 'Log in to the registry in the browser (or with a pasted --token); stores ~/.avp/credentials (0600)',
  },
  args: {
    registry: { type: 'string', description: 'Registry base URL' },
    token: { type: 'string', description: 'Use this token instead of the browser (checked with the registry first)' },
    json: { type: 'boolean', description: 'Print {registry, email, name, path} as JSON on stdout (never the token)' },
  },
  run({ args }) {
    return runCommand(async () => {
      const [
        { browserLogin, verifyToken },
        { registryUrl, writeCredentials },
        { printJson },
        { findProjectRoot },
        { logger },
      ] = await Promise.all([
        import('../registry-client/login.ts'),
        import('../registry-client/credentials.ts'),
        import('../registry-client/cli-args.ts'),
        import('../paths.ts'),
        import('../logger.ts'),
      ]);
      const log = await logger();
      const base = await registryUrl({ registry: args.registry, projectRoot: findProjectRoot(process.cwd()) });
      let creds;
      if (args.token) {
        const who = await verifyToken(base, args.token);
        creds = { registry: base, token: args.token, email: who.email, name: who.name };
      } else {
        creds = await browserLogin(base, {
          async show(url) {
            const opened = await openBrowser(url);
            process.stderr.write(
              `${opened ? 'Opened your browser to log in. If it did not open, visit' : 'To log in, open'}:\n  ${url}\n`,
            );
          },
        });
      }
      const path = writeCredentials(creds);
      if (process.env.AVP_TOKEN) log.warn('AVP_TOKEN is set and wins over the stored login while it stays set');
      if (args.json) return printJson({ registry: creds.registry, email: creds.email, name: creds.name, path });
      log.success(
        `logged in to ${creds.registry} as ${creds.name ?? '?'}${creds.email ? ` <${creds.email}>` : ''} (token saved in ${path})`,
      );
    });
  },
});
