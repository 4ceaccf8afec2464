/**
 * Guardian consent at the provider: a grant never holds the community scope while the child's consent
 * is pending (services/edu/family/consent.ts). The scope is recorded as rejected (oidc-provider leaves a
 * rejected scope out of what the grant gives, and does not ask for it again), and the rejection is
 * lifted at the next authorization once a guardian has consented.
 */
import { COMMUNITY_SCOPE } from '@edupass/protocol';
import type { GrantModel } from 'oidc-provider';
import type { Context } from '../context.ts';
import { withheldScopes } from '../services/edu/family/consent.ts';

/**
 * A grant's rejections, which oidc-provider's types leave out; it has no call to take a rejection
 * back, so that is done on the part where it keeps them.
 */
type WithRejections = GrantModel & {
  getRejectedOIDCScope(): string;
  rejectOIDCScope(scope: string): void;
  rejected?: { openid?: { scope?: string } };
};

const hasScope = (scopes: string) => scopes.split(' ').includes(COMMUNITY_SCOPE);

/** Brings the grant's community scope in line with the account's consent; true when the grant changed. */
export const applyConsentToGrant = async (
  ctx: Pick<Context, 'db'>,
  model: GrantModel,
  requested: Iterable<string>,
): Promise<boolean> => {
  const grant = model as WithRejections;
  if (![...requested].includes(COMMUNITY_SCOPE) || grant.accountId === undefined) return false;
  const rejected = hasScope(grant.getRejectedOIDCScope());
  if ((await withheldScopes(ctx, Number(grant.accountId))).includes(COMMUNITY_SCOPE)) {
    if (rejected) return false;
    grant.rejectOIDCScope(COMMUNITY_SCOPE);
    return true;
  }
  if (!rejected) return false;
  const part = grant.rejected?.openid;
  if (part?.scope !== undefined) {
    part.scope = part.scope
      .split(' ')
      .filter((scope) => scope !== COMMUNITY_SCOPE)
      .join(' ');
  }
  grant.addOIDCScope(COMMUNITY_SCOPE);
  return true;
};
