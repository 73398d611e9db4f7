import { defineCommand } from 'citty';

/** `avp registry …`: run and administer a self-hosted registry (server code loads only when one of these runs). */
export default defineCommand({
  meta: {
    name: 'registry',
    description:
      'Run and administer a self-hosted AVP registry (serve, tokens, export, audit, seed the catalog, purge).',
  },
  subCommands: {
    serve: () => import('./serve.ts').then((m) => m.default),
    token: () => import('./token.ts').then((m) => m.default),
    export: () => import('./export.ts').then((m) => m.default),
    audit: () => import('./audit.ts').then((m) => m.default),
    'seed-catalog': () => import('./seed-catalog.ts').then((m) => m.default),
    purge: () => import('./purge.ts').then((m) => m.default),
  },
});
