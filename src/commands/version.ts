/** `avp version`: the version of this avp (the same as `avp --version`). */
import { defineCommand } from 'citty';
import { VERSION } from '../version.ts';

export default defineCommand({
  meta: { name: 'version', description: 'Print the version of avp' },
  args: {
    json: { type: 'boolean', description: 'Print {version, runtime, platform} as JSON on stdout' },
  },
  run({ args }) {
    if (!args.json) return void process.stdout.write(`${VERSION}\n`);
    const runtime = `bun ${process.versions.bun ?? '?'}`;
    const out = { version: VERSION, runtime, platform: `${process.platform}-${process.arch}` };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  },
});
