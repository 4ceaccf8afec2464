/**
 * Notices of takeover-prone changes, sent to where the owner can still be reached: the old phone and
 * the e-mail on file. A notice that cannot be delivered is logged, never an error for the change
 * that already happened.
 */
import type { Context } from '../../context.ts';

export type AccountChange =
  | 'phone_changed'
  | 'phone_bound'
  | 'password_changed'
  | 'password_reset'
  | 'oauth_unbound'
  | 'oauth_bound'
  | 'email_changed'
  | 'email_bound';

const WORDS: Record<AccountChange, [zh: string, en: string]> = {
  phone_changed: ['账号绑定的手机号已更换', 'the phone number of your account was changed'],
  phone_bound: ['账号绑定了手机号', 'a phone number was bound to your account'],
  password_changed: ['账号密码已修改', 'the password of your account was changed'],
  password_reset: ['账号密码已重置', 'the password of your account was reset'],
  oauth_unbound: ['账号解除了第三方账号绑定', 'a third-party sign-in was unlinked from your account'],
  oauth_bound: ['账号绑定了第三方账号', 'a third-party sign-in was linked to your account'],
  email_changed: ['账号绑定的邮箱已更换', 'the e-mail address of your account was changed'],
  email_bound: ['账号绑定了邮箱', 'an e-mail address was added to your account'],
};

/** The notice's text, naming the site (SITE_NAME) as code messages do (adapters/code-texts.ts). */
const noticeText = (site: string, change: AccountChange) => {
  const [zh, en] = WORDS[change];
  return (
    `【${site}】${zh}。如非本人操作，请立即重置密码并联系网站管理员。` +
    ` ${site}: ${en}. If this was not you, reset your password now and contact the site's operator.`
  );
};

/** Someone a notice goes to: their phone and e-mail, where they have them. */
export interface NoticeTarget {
  id: number;
  phone: string | null;
  email: string | null;
}

/** Sends one notice to the person's phone and e-mail; one not delivered is logged, never an error. */
export const notifyPerson = async (
  ctx: Context,
  person: NoticeTarget,
  notice: { kind: string; subject: string; text: string },
) => {
  const targets = [
    ...(person.phone ? [{ to: person.phone, channel: 'sms' as const }] : []),
    ...(person.email ? [{ to: person.email, channel: 'email' as const }] : []),
  ];
  for (const target of targets) {
    try {
      await ctx.delivery.notify?.({ ...target, ...notice });
    } catch (error) {
      ctx.logger.warn(
        { userId: person.id, kind: notice.kind, channel: target.channel, err: error },
        'notice not delivered',
      );
    }
  }
};

/** Tells the account's phone and e-mail (as they were before the change) what changed. */
export const noticeAccountChange = async (ctx: Context, before: NoticeTarget, change: AccountChange) => {
  const site = ctx.config.site.name;
  await notifyPerson(ctx, before, {
    kind: change,
    subject: `${site} 账号安全提醒 · Account security notice`,
    text: noticeText(site, change),
  });
};
