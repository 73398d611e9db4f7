import { defineCommand } from 'citty';
import { AvpError } from '../../errors.ts';
import { runCommand } from '../run-command.ts';
import { dataDirOf, dbOf, storeArgs } from './shared-args.ts';

/** `--since 24h` / `7d` / `30m` / an ISO date → an ISO timestamp. */
export function sinceOf(value: string, now = Date.now()): string {
  const rel = /^(\d+)\s*(m|h|d)$/.exec(value.trim());
  if (rel)
    return new Date(now - Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 'm']).toISOString();
  const t = Date.parse(value);
  if (Number.isNaN(t)) {
    throw new AvpError('usage', `--since ${JSON.stringify(value)} is neither a duration nor a date`, {
      fix: 'use a duration (30m, 24h, 7d) or a date (2025-06-01, 2025-06-01T12:00:00Z)',
    });
  }
  return new Date(t).toISOString();
}

/**
 * `avp registry audit`: who published, yanked, changed owners, created or revoked a token, logged in or out; when;
 * from where. Reads the store directly (the access an admin of the machine has), like `token`.
 */
export default defineCommand({
  meta: { name: 'audit', description: "Show the registry's audit log (publish, yank, owners, tokens, logins)." },
  args: {
    since: { type: 'string', description: 'Only entries since a duration ago (30m, 24h, 7d) or a date' },
    action: {
      type: 'string',
      description: 'Only one action: publish, yank, owner-add, owner-remove, token-create, token-revoke, login, logout',
    },
    account: { type: 'string', description: 'Only entries by this account (cli:<user> for token commands)' },
    package: { type: 'string', description: 'Only entries about this package' },
    limit: { type: 'string', description: 'The newest N matching entries', default: '100' },
    json: { type: 'boolean', description: 'Print {entries:[…]} as JSON', default: false },
    ...storeArgs,
  },
  async run({ args }) {
    await runCommand(async () => {
      const { AUDIT_ACTIONS, readAudit } = await import('../../../registry/audit.ts');
      if (args.action && !(AUDIT_ACTIONS as string[]).includes(args.action)) {
        const { didYouMean } = await import('../../did-you-mean.ts');
        const hint = didYouMean(args.action, AUDIT_ACTIONS);
        throw new AvpError('usage', `--action ${args.action} is not an audited action${hint}`, {
          fix: `use one of ${AUDIT_ACTIONS.join(', ')}`,
        });
      }
      const limit = Number(args.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) {
        throw new AvpError('usage', `--limit ${args.limit} is not a number of entries`, {
          fix: 'use 1–100000, e.g. --limit 500',
        });
      }
      const since = args.since ? sinceOf(args.since) : undefined;
      const { Store } = await import('../../../registry/store.ts');
      const store = await Store.open(dataDirOf(args.data), dbOf(args.db));
      try {
        const entries = await readAudit(store, {
          since,
          action: args.action,
          account: args.account,
          package: args.package,
          limit,
        });
        if (args.json) {
          process.stdout.write(`${JSON.stringify({ entries })}\n`);
          return;
        }
        for (const e of entries) {
          const what = e.package ? `${e.package}${e.version ? `@${e.version}` : ''}` : '-';
          const from = e.forwardedFor ? `${e.ip ?? '?'} (for ${e.forwardedFor})` : (e.ip ?? '?');
          const extra = [e.target, e.detail].filter(Boolean).join(' ');
          process.stdout.write(
            `${e.at}\t${e.action}\t${e.account ?? '-'}\t${what}\t${from}${extra ? `\t${extra}` : ''}\n`,
          );
        }
        if (!entries.length) process.stderr.write('no audit entries match\n');
      } finally {
        await store.close();
      }
    });
  },
});
