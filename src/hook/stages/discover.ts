/**
 * Discover: project .avp/validators + user ~/.avp/validators (project wins), from the accepted state's listing and the
 * parse cache; a validator the managed policy requires and that is missing fails closed, like a broken one. The call
 * is counted here, also when nothing will match (`avp stats`' denominator).
 */
import { missingRequired } from '../../config/managed.ts';
import { isDisabled } from '../../config/config.ts';
import { callKey } from '../../stats/call-line.ts';
import { countCall } from '../../stats/calls.ts';
import { applyPrecedence, discover as discoverValidators, loadSource } from '../../validator/discover.ts';
import type { Discovery } from '../../validator/types.ts';
import { PASS_DECISION } from '../decision.ts';
import type { HookContext } from '../context.ts';

export async function discover(ctx: HookContext) {
  const { config, view, normalized: event } = ctx;
  // The hook memo held (nothing looked at changed since a call found nothing pending): its discovery is this one's.
  const usage = { parsed: true };
  let found =
    view.discovery && config.cache.enabled
      ? view.discovery
      : await discoverValidators({
          projectRoot: event.projectRoot,
          env: ctx.env,
          noCache: !config.cache.enabled,
          projectDir: view.projectValidators,
          userDir: view.userValidators,
          listing: view.listing,
          usage,
        });
  // All of it served by the parse cache, through the listing the memo records: the next call may use the memo.
  if (!view.discovery && !usage.parsed && config.cache.enabled) view.remember?.(found);
  // `avp init --managed`: the administrator's validators come first, over any project or user validator of the
  // same name, and are parsed every call (the parse cache lives where the user can write).
  if (config.policy?.validatorsDir) found = await withManagedValidators(found, config.policy.validatorsDir);
  const missing = config.policy ? missingRequired(config.policy, found.validators, found.errors) : [];
  if (missing.length) found = { ...found, errors: [...found.errors, ...missing] };
  // Nothing installed anywhere: nothing can ever match, and there is no turn worth tracking.
  ctx.installed = found.validators.length > 0 || found.errors.length > 0;
  if (!ctx.installed) return PASS_DECISION;
  ctx.call = callKey(ctx.event, ctx.startedAt);
  if (!event.stateless) countCall(ctx.event, ctx.call);
  ctx.active = found.validators.filter((v) => !isDisabled(config, v.id, v.name));
  ctx.errors = found.errors;
  return undefined;
}

async function withManagedValidators(found: Discovery, dir: string): Promise<Discovery> {
  const managed = await loadSource(dir, 'user', '', true);
  const merged = applyPrecedence(managed, { validators: found.validators, errors: found.errors, warnings: [] });
  return {
    ...merged,
    warnings: [...merged.warnings, ...found.warnings],
    shadowed: [...found.shadowed, ...merged.shadowed],
  };
}
