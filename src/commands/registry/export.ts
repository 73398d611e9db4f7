import { defineCommand } from 'citty';
import { runCommand } from '../run-command.ts';
import { archivesArg, archivesOf, dataDirOf, dbOf, storeArgs } from './shared-args.ts';

/** `avp registry export DIR --base-url URL`: a static copy of the read path (metadata JSON + archives). */
export default defineCommand({
  meta: {
    name: 'export',
    description:
      'Write a static copy of the registry (read API JSON, archives and web pages) that any static host can serve.',
  },
  args: {
    dir: { type: 'positional', description: 'New (or empty) directory to write the export into', required: true },
    'base-url': {
      type: 'string',
      description: 'URL the export will be served from; downloadUrls point there (e.g. https://cdn.example.com/avp)',
      required: true,
    },
    json: { type: 'boolean', description: 'Print {dir, packages, versions, files} as JSON', default: false },
    ...storeArgs,
    ...archivesArg,
  },
  async run({ args }) {
    await runCommand(async () => {
      const [{ Store }, { BlobStore }, { openArchives }, { exportRegistry }] = await Promise.all([
        import('../../../registry/store.ts'),
        import('../../../registry/blobs.ts'),
        import('../../../registry/archives.ts'),
        import('../../../registry/export.ts'),
      ]);
      const dataDir = dataDirOf(args.data);
      const store = await Store.open(dataDir, dbOf(args.db));
      try {
        const archives = await openArchives(archivesOf(args.archives), store, new BlobStore(dataDir));
        const result = await exportRegistry(store, archives, args.dir, args['base-url']);
        if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
        else {
          process.stdout.write(`${result.dir}\n`);
          process.stderr.write(
            `exported ${result.packages} packages, ${result.versions} versions (${result.files} files)\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
  },
});
