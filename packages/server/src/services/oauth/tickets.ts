/**
 * The `oauth_ticket`: what a provider vouched for, kept for the step that binds a phone to it or
 * creates its user. Live for OAUTH_TICKET_TTL, spent by the step that links it; anything else (unknown,
 * expired, spent, forged) is AC3_18.
 */
import type { OauthIdentity, OauthProviderName } from '../../adapters/oauth-provider.ts';
import { isOauthProvider } from '../../adapters/oauth-provider.ts';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { issueTicket, peekTicket, spendTicket, type TicketFacts, updateTicket } from '../security/tickets.ts';

export interface PendingIdentity extends OauthIdentity {
  pid: string;
  /** Agreements chosen at the sign-in step, signed when the user is created. */
  agreementIds: number[];
  /** The phone the bind code went to (captcha/oauth), for a create step that names only the code. */
  phone: string | undefined;
}

const toData = (p: PendingIdentity): Record<string, unknown> => ({
  provider: p.provider,
  openid: p.openid,
  unionid: p.unionid,
  nickname: p.nickname,
  avatar_url: p.avatarUrl,
  pid: p.pid,
  agreement_ids: p.agreementIds,
  ...(p.phone === undefined ? {} : { phone: p.phone }),
});

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

const fromFacts = (facts: TicketFacts | undefined): PendingIdentity => {
  const d = facts?.data ?? {};
  const provider = str(d.provider);
  const openid = str(d.openid);
  const pid = str(d.pid);
  if (!provider || !isOauthProvider(provider) || !openid || pid === undefined) return fail('AC3_18');
  return {
    provider,
    openid,
    unionid: str(d.unionid) ?? null,
    nickname: str(d.nickname) ?? '',
    avatarUrl: str(d.avatar_url) ?? '',
    pid,
    agreementIds: Array.isArray(d.agreement_ids) ? d.agreement_ids.filter(Number.isSafeInteger) : [],
    phone: str(d.phone),
  };
};

export const issueOauthTicket = (ctx: Context, pending: PendingIdentity) =>
  issueTicket(ctx, 'oauth', `${pending.provider}:${pending.openid}`, ctx.config.oauthTicketTtlSeconds, toData(pending));

/** The identity of a live ticket, without spending it. */
export const readOauthTicket = async (ctx: Context, ticket: string) =>
  fromFacts(await peekTicket(ctx, 'oauth', ticket));

/** Spends a ticket: the identity for the one caller that spends it first, AC3_18 for any other. */
export const spendOauthTicket = async (ctx: Context, ticket: string) =>
  fromFacts(await spendTicket(ctx, 'oauth', ticket));

export const rememberPhone = async (ctx: Context, ticket: string, pending: PendingIdentity, phone: string) => {
  if (!(await updateTicket(ctx, 'oauth', ticket, toData({ ...pending, phone })))) fail('AC3_18');
};

export type { OauthProviderName };
