import { diff, gt, valid } from 'semver';
import { recordAudit } from './audit.ts';
import { ACCOUNT_RE, requireOwner, requirePrincipal } from './auth.ts';
import { BlobStore } from './blobs.ts';
import { LIMITS, readBody, readJson } from './body.ts';
import { HttpError, badRequest, conflict, forbidden, json, notFound } from './errors.ts';
import { factsOf } from './facts.ts';
import { publisherTests } from './publish-tests.ts';
import { checkWriteRate } from './rate-limit.ts';
import { downloadUrl } from './shapes.ts';
import type { Ctx } from './server.ts';
import { checkUpload } from './validate-upload.ts';

/** Publish, yank, update checks and owner management. Everything that writes needs a valid token. */

/** `POST /api/packages` — multipart/form-data with one part `package` (the zip). */
export async function publish(ctx: Ctx, req: Request): Promise<Response> {
  const principal = await requirePrincipal(ctx.store, req);
  await checkWriteRate(ctx.store, principal.tokenId, ctx.writeLimit);
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      'publish with multipart/form-data holding one part `package` (the zip); `avp publish` does this',
    );
  }
  const body = await readBody(req, LIMITS.uploadBodyBytes, 'the upload');
  let form: Awaited<ReturnType<Response['formData']>>;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw badRequest('the multipart body could not be parsed', 'invalid_multipart');
  }
  const part = form.get('package');
  if (!part || typeof part === 'string')
    throw badRequest('the multipart body has no file part named `package`', 'missing_package');
  const bytes = new Uint8Array(await part.arrayBuffer());
  const checked = await checkUpload(bytes, ctx.blobs.tmp);
  const m = checked.info.manifest;
  // Refuse a non-owner or an existing version before writing anything; the transaction below checks again (races).
  const admin = principal.scope === 'admin';
  const early = await precheck(ctx, m.name, m.version, principal.account, admin);
  // Then the bytes, staged so that they commit with the row (database, object storage) or before it (files: a blob
  // without a row is harmless, content-addressed; a row without its blob is not).
  const staged = early === 'ok' ? await ctx.archives.stage(BlobStore.keyOf(bytes), bytes) : undefined;
  const facts = await factsOf(checked.info);
  facts.tests = publisherTests(form.get('tests'), facts.tests?.caseFiles ?? 0);
  let outcome: typeof early;
  try {
    outcome =
      early !== 'ok'
        ? early
        : await ctx.store.publish(
            {
              name: m.name,
              version: m.version,
              type: checked.info.type,
              integrity: checked.integrity,
              size: checked.size,
              description: m.description ?? '',
              author: m.author ?? principal.account,
              license: m.license,
              tags: [...new Set(m.tags ?? [])].slice(0, 50),
              readme: checked.readme,
              publishedBy: principal.account,
            },
            {
              admin,
              inTx: async (tx) => {
                await staged!.inTx(tx);
                await tx`UPDATE versions SET facts = ${JSON.stringify(facts)} WHERE name = ${m.name} AND version = ${m.version}`;
                await recordAudit(tx, {
                  action: 'publish',
                  account: principal.account,
                  tokenId: principal.tokenId,
                  package: m.name,
                  version: m.version,
                  detail: checked.integrity,
                  origin: ctx.originOf(req),
                });
              },
            },
          );
  } catch (e) {
    await staged?.discard();
    throw e;
  }
  if (outcome !== 'ok') await staged?.discard();
  if (outcome === 'forbidden') {
    const owners = await ctx.store.owners(m.name);
    throw forbidden(
      `${m.name} is owned by ${owners.join(', ')}; account "${principal.account}" may not publish it (an owner can add you)`,
    );
  }
  if (outcome === 'conflict') {
    throw conflict(
      `${m.name}@${m.version} is already published; versions are immutable — bump metadata.version and publish again`,
    );
  }
  const url = downloadUrl(ctx.baseUrl(req), m.name, m.version);
  return json(
    {
      name: m.name,
      version: m.version,
      published: true,
      downloadUrl: url,
      integrity: checked.integrity,
      size: checked.size,
    },
    201,
  );
}

async function precheck(
  ctx: Ctx,
  name: string,
  version: string,
  account: string,
  admin: boolean,
): Promise<'ok' | 'forbidden' | 'conflict'> {
  if (!(await ctx.store.getPackage(name))) return 'ok';
  if (!admin && !(await ctx.store.owners(name)).includes(account)) return 'forbidden';
  return (await ctx.store.getVersion(name, version)) ? 'conflict' : 'ok';
}

/**
 * `DELETE /api/packages/{name}/{version}` — yank: hidden from resolution and `latest`, still downloadable by exact
 * version. The reference's registry deletes here; avp's keeps versions immutable, and says so in the answer
 * (`deleted: false`, `yanked: true`), which the reference's client deserializes (it reads `deleted`, `name`,
 * `version`). A permanent removal (legal takedown) is an admin's `avp registry purge`.
 */
export async function yank(ctx: Ctx, req: Request, name: string, version: string): Promise<Response> {
  const principal = await requirePrincipal(ctx.store, req);
  const pkg = await ctx.store.getPackage(name);
  if (!pkg) throw notFound(`package ${name} not found`);
  await requireOwner(ctx.store, principal, name);
  await checkWriteRate(ctx.store, principal.tokenId, ctx.writeLimit);
  const v = await ctx.store.getVersion(name, version);
  if (!v) throw notFound(`package ${name} has no version ${version}`);
  await ctx.store.yank(name, version);
  if (!v.yanked) {
    const origin = ctx.originOf(req);
    await recordAudit(ctx.store.db, {
      action: 'yank',
      account: principal.account,
      tokenId: principal.tokenId,
      package: name,
      version,
      origin,
    });
  }
  const after = await ctx.store.getPackage(name);
  return json({ name, version, deleted: false, yanked: true, latest: after?.latest ?? null });
}

/** `POST /api/packages/updates` — `{installed: [{name, version}]}` → newer non-yanked versions. Token optional. */
export async function updates(ctx: Ctx, req: Request): Promise<Response> {
  const body = await readJson(req);
  const installed = body.installed;
  if (!Array.isArray(installed)) throw badRequest('the body must be {"installed": [{"name", "version"}]}');
  if (installed.length > 1000) throw badRequest('at most 1000 installed packages per request');
  const out: Array<{ name: string; currentVersion: string; latestVersion: string; updateType: string }> = [];
  for (const item of installed) {
    const name = typeof item?.name === 'string' ? item.name : undefined;
    const current = typeof item?.version === 'string' ? item.version : undefined;
    if (!name || !current || !valid(current)) continue;
    const pkg = await ctx.store.getPackage(name);
    if (!pkg?.latest || !gt(pkg.latest, current)) continue;
    const kind = diff(current, pkg.latest) ?? 'patch';
    out.push({
      name,
      currentVersion: current,
      latestVersion: pkg.latest,
      updateType: kind.replace(/^pre(?=major|minor|patch)/, ''),
    });
  }
  return json({ updates: out });
}

/** `GET /api/packages/{name}/owners` (avp extension). */
export async function listOwners(ctx: Ctx, name: string): Promise<Response> {
  if (!(await ctx.store.getPackage(name))) throw notFound(`package ${name} not found`);
  return json({ name, owners: await ctx.store.owners(name) });
}

/** `PUT` / `DELETE /api/packages/{name}/owners/{account}` (avp extension): owners (or admins) add and remove owners. */
export async function changeOwner(ctx: Ctx, req: Request, name: string, account: string): Promise<Response> {
  const principal = await requirePrincipal(ctx.store, req);
  if (!(await ctx.store.getPackage(name))) throw notFound(`package ${name} not found`);
  await requireOwner(ctx.store, principal, name);
  if (!ACCOUNT_RE.test(account)) throw badRequest(`invalid account name ${JSON.stringify(account)}`);
  await checkWriteRate(ctx.store, principal.tokenId, ctx.writeLimit);
  const before = await ctx.store.owners(name);
  if (req.method === 'PUT') {
    // An owner nobody can log in as would be a typo that looks like success (or a name squatted later).
    if (!(await ctx.store.accountExists(account))) {
      throw new HttpError(
        404,
        'unknown_account',
        `account "${account}" has no token on this registry, so it cannot be an owner yet; ` +
          `an admin creates one with \`avp registry token create --name ${account}\`, then add the owner again`,
      );
    }
    await ctx.store.addOwner(name, account, principal.account);
  } else if (!(await ctx.store.removeOwner(name, account))) {
    throw conflict(`${account} is the last owner of ${name}; add another owner first`);
  }
  const owners = await ctx.store.owners(name);
  if (owners.length !== before.length) {
    const action = req.method === 'PUT' ? 'owner-add' : 'owner-remove';
    const audit = {
      action,
      account: principal.account,
      tokenId: principal.tokenId,
      package: name,
      target: account,
    } as const;
    await recordAudit(ctx.store.db, { ...audit, origin: ctx.originOf(req) });
  }
  return json({ name, owners });
}
