/**
 * Discover: project .avp/validators + user ~/.avp/validators (project wins), from the accepted state's listing and the
 * parse cache; a validator the managed policy requires and that is missing fails closed, like a broken one. The call
 * is counted here, also when nothing will match (`avp stats`' denominator).
 */
import { missingRequired } from '../../config/managed.ts';
import { isDisabled } from '../../config/config.ts';
import { callKey, countCall } from '../../stats/calls.ts';
import { discover as discoverValidators } from '../../validator/discover.ts';
import { PASS_DECISION } from '../decision.ts';
import type { HookContext } from '../context.ts';

export async function discover(ctx: HookContext) {
  const { config, view, normalized: event } = ctx;
  let found = await discoverValidators({
    projectRoot: event.projectRoot,
    env: ctx.env,
    noCache: !config.cache.enabled,
    projectDir: view.projectValidators,
    userDir: view.userValidators,
    listing: view.listing,
  });
  const missing = config.policy ? missingRequired(config.policy, found.validators, found.errors) : [];
  if (missing.length) found = { ...found, errors: [...found.errors, ...missing] };
  // Nothing installed anywhere: nothing can ever match, and there is no turn worth tracking.
  if (!found.validators.length && !found.errors.length) return PASS_DECISION;
  ctx.call = callKey(ctx.event, ctx.startedAt);
  if (!event.stateless) countCall(ctx.event, ctx.call);
  ctx.active = found.validators.filter((v) => !isDisabled(config, v.id, v.name));
  ctx.errors = found.errors;
  return undefined;
}
