/**
 * The privacy notice's retention statement: each kind of record and how long it is kept, written from
 * the running configuration (the same settings the hourly sweep reads), so the notice cannot drift from
 * what the server does. In Chinese or English; served at `GET /tiger/v3/web/accounts/privacy/retention`
 * and shown by the web client at `/privacy/retention`.
 */
import type { AgreementLanguage, RetentionStatement } from '@edupass/protocol';
import type { Config } from '../../config/config.ts';

type Words = Record<AgreementLanguage, string>;
interface Kind {
  kind: string;
  record: Words;
  /** Days, or undefined for a record kept until an event (the words say which). */
  days?: (config: Config) => number;
  kept: (config: Config) => Words;
}

const inDays = (days: number): Words => ({ 'zh-CN': `${days} 天`, en: `${days} day${days === 1 ? '' : 's'}` });
const dayCount = (seconds: number) => Math.round(seconds / 86_400);

const KINDS: Kind[] = [
  {
    kind: 'account',
    record: { 'zh-CN': '账号与个人资料', en: 'Your account and profile' },
    kept: (c) => ({
      'zh-CN': `保留至你删除账号；申请删除后 ${c.accountDeletionGraceDays} 天内可撤销，之后彻底删除`,
      en: `Until you delete the account; it is erased ${c.accountDeletionGraceDays} days after you ask (you can change your mind until then)`,
    }),
  },
  {
    kind: 'child_awaiting_consent',
    record: {
      'zh-CN': '未满十四周岁、尚待监护人同意的账号',
      en: 'An account under 14 waiting for a guardian’s consent',
    },
    days: (c) => c.eduConsentPendingDays,
    kept: (c) => ({
      'zh-CN': `${c.eduConsentPendingDays} 天内未获同意即删除`,
      en: `Erased if no guardian consents within ${c.eduConsentPendingDays} days`,
    }),
  },
  {
    kind: 'sessions',
    record: { 'zh-CN': '登录状态（设备上的登录）', en: 'Signed-in sessions on your devices' },
    days: (c) => dayCount(c.refreshTokenTtlSeconds),
    kept: (c) => inDays(dayCount(c.refreshTokenTtlSeconds)),
  },
  {
    kind: 'security_events',
    record: {
      'zh-CN': '账号安全记录（登录失败、锁定等）',
      en: 'Security events of your account (failed sign-ins, locks)',
    },
    days: (c) => c.securityEventRetentionDays,
    kept: (c) => inDays(c.securityEventRetentionDays),
  },
  {
    kind: 'usage_events',
    record: { 'zh-CN': '使用统计事件', en: 'Usage events' },
    days: (c) => c.usageRetentionDays,
    kept: (c) => inDays(c.usageRetentionDays),
  },
  {
    kind: 'access_log',
    record: { 'zh-CN': '谁查看过你的资料（查阅记录）', en: 'Who read your record (the access log)' },
    days: (c) => c.accessLogRetentionDays,
    kept: (c) => inDays(c.accessLogRetentionDays),
  },
  {
    kind: 'audit_log',
    record: { 'zh-CN': '管理员操作日志', en: 'Operators’ audit log' },
    days: (c) => c.auditRetentionDays,
    kept: (c) => inDays(c.auditRetentionDays),
  },
  {
    kind: 'consent_records',
    record: { 'zh-CN': '监护人同意、拒绝和撤回的记录', en: 'Guardians’ consents, refusals and withdrawals' },
    days: (c) => c.consentEvidenceRetentionYears * 365,
    kept: (c) => ({
      'zh-CN': `账号注销后 ${c.consentEvidenceRetentionYears} 年`,
      en: `${c.consentEvidenceRetentionYears} year${c.consentEvidenceRetentionYears === 1 ? '' : 's'} after the account ends`,
    }),
  },
  {
    kind: 'data_export',
    record: { 'zh-CN': '你申请的个人信息副本', en: 'A copy of your data you asked for' },
    days: (c) => c.dataExportLinkHours / 24,
    kept: (c) => ({
      'zh-CN': `下载链接 ${c.dataExportLinkHours} 小时后失效，副本随之删除`,
      en: `Deleted when its link ends, ${c.dataExportLinkHours} hours after it is ready`,
    }),
  },
];

export const retentionStatement = (config: Config, lang: AgreementLanguage): RetentionStatement => ({
  lang,
  records: KINDS.map(({ kind, record, days, kept }) => ({
    kind,
    record: record[lang],
    kept: kept(config)[lang],
    days: days ? days(config) : null,
  })),
});
