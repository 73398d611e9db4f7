import { defineCommand } from 'citty';
import { AvpError } from '../../errors.ts';
import { runCommand } from '../run-command.ts';
import { dataDirOf, dbOf, storeArgs } from './shared-args.ts';

/**
 * `avp registry token create|list|revoke`: token administration for a self-hosted registry. It works on the store
 * directly (`--data` / `--db`), so it needs the machine access an admin has, not a token; it may run while the
 * server runs (SQLite WAL, or PostgreSQL).
 */
async function openStore(data: string | undefined, db: string | undefined) {
  const { Store } = await import('../../../registry/store.ts');
  return Store.open(dataDirOf(data), dbOf(db));
}

/** Records a token command in the audit log, as `cli:<os user>` from `local` (an admin on the machine). */
async function audit(
  store: Awaited<ReturnType<typeof openStore>>,
  action: 'token-create' | 'token-revoke',
  target: string,
  detail?: string,
): Promise<void> {
  const [{ recordAudit, localOrigin }, { userInfo }] = await Promise.all([
    import('../../../registry/audit.ts'),
    import('node:os'),
  ]);
  let user = process.env.USER || process.env.LOGNAME || `uid-${process.getuid?.() ?? '?'}`;
  try {
    user = userInfo().username || user;
  } catch {
    // no passwd entry (containers): $USER, else the uid, stands in
  }
  await recordAudit(store.db, { action, account: `cli:${user}`, target, detail, origin: localOrigin() });
}

const create = defineCommand({
  meta: { name: 'create', description: 'Create a token for an account; the secret is printed once on stdout.' },
  args: {
    name: {
      type: 'string',
      description: 'Account the token acts as (recorded as package owner); required',
      required: true,
    },
    admin: {
      type: 'boolean',
      description: 'Admin scope: publish, yank and manage owners of every package',
      default: false,
    },
    email: { type: 'string', description: 'Email reported by /api/auth/cli/verify (avp whoami)' },
    label: { type: 'string', description: 'A note to recognise the token in `token list` (e.g. "ci")' },
    json: { type: 'boolean', description: 'Print {id, token, account, scope} as JSON', default: false },
    ...storeArgs,
  },
  async run({ args }) {
    await runCommand(async () => {
      const { createToken } = await import('../../../registry/auth.ts');
      const store = await openStore(args.data, args.db);
      try {
        const { token, info } = await createToken(store, {
          account: args.name,
          scope: args.admin ? 'admin' : 'publish',
          email: args.email,
          label: args.label,
        });
        await audit(store, 'token-create', info.id, `account ${info.account}, scope ${info.scope}`);
        if (args.json)
          process.stdout.write(`${JSON.stringify({ id: info.id, token, account: info.account, scope: info.scope })}\n`);
        else {
          process.stdout.write(`${token}\n`);
          process.stderr.write(
            `created ${info.id} (${info.scope}) for account ${info.account}; the token is shown only now\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
  },
});

const list = defineCommand({
  meta: { name: 'list', description: 'List tokens (ids, accounts, scopes, use; never secrets).' },
  args: { json: { type: 'boolean', description: 'Print JSON', default: false }, ...storeArgs },
  async run({ args }) {
    await runCommand(async () => {
      const { listTokens } = await import('../../../registry/auth.ts');
      const store = await openStore(args.data, args.db);
      try {
        const tokens = await listTokens(store);
        if (args.json) {
          process.stdout.write(`${JSON.stringify({ tokens })}\n`);
          return;
        }
        for (const t of tokens) {
          const state = t.revokedAt ? `revoked ${t.revokedAt}` : t.lastUsedAt ? `used ${t.lastUsedAt}` : 'never used';
          process.stdout.write(
            `${t.id}\t${t.account}\t${t.scope}\t${t.label ?? ''}\tcreated ${t.createdAt}\t${state}\n`,
          );
        }
        if (!tokens.length) process.stderr.write('no tokens yet: avp registry token create --name <account>\n');
      } finally {
        await store.close();
      }
    });
  },
});

const revoke = defineCommand({
  meta: { name: 'revoke', description: 'Revoke a token by id (see `token list`).' },
  args: { id: { type: 'positional', description: 'Token id, e.g. tok_0123abcd4567', required: true }, ...storeArgs },
  async run({ args }) {
    await runCommand(async () => {
      const { revokeToken } = await import('../../../registry/auth.ts');
      const store = await openStore(args.data, args.db);
      try {
        if (!(await revokeToken(store, args.id))) {
          throw new AvpError('registry-token-unknown', `no active token with id ${args.id}`, {
            fix: 'see the ids with `avp registry token list`',
          });
        }
        await audit(store, 'token-revoke', args.id);
        process.stderr.write(`revoked ${args.id}\n`);
      } finally {
        await store.close();
      }
    });
  },
});

export default defineCommand({
  meta: { name: 'token', description: 'Create, list and revoke tokens of a self-hosted registry.' },
  subCommands: { create, list, revoke },
});
