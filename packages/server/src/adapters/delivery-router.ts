/**
 * The one Delivery the server uses, built from configuration: SMS and voice codes to the configured
 * SMS provider, e-mail codes to SMTP, and anything without a provider to the dev outbox.
 */
import type { Config } from '../config/config.ts';
import type { SmsConfig } from '../config/delivery-config.ts';
import { type Delivery, type Logger, type OutboxRow, outboxDelivery } from './delivery.ts';
import { DeliveryError } from './delivery-error.ts';
import { smtpSender } from './email.ts';
import { aliyunSms } from './sms-aliyun.ts';
import type { SmsProvider } from './sms-provider.ts';
import { tencentSms } from './sms-tencent.ts';

/** The configured SMS provider's adapter. */
export const smsProviderFor = (sms: SmsConfig): SmsProvider =>
  sms.provider === 'aliyun' ? aliyunSms(sms) : tencentSms(sms);

export const deliveryFromConfig = (
  config: Config,
  /** Where codes and notices without a provider are kept (services/codes/dev-outbox.ts). */
  keep: (row: OutboxRow) => Promise<void>,
  logger: Logger,
  now: () => number = Date.now,
): Delivery => {
  const outbox = outboxDelivery(keep, logger, now, !config.production);
  const sms = config.sms ? smsProviderFor(config.sms) : undefined;
  const email = config.smtp ? smtpSender(config.smtp) : undefined;
  if (config.production && (!sms || !email)) {
    logger.warn(
      { sms: Boolean(sms), email: Boolean(email) },
      'codes without a provider go to the dev outbox and reach nobody: set SMS_PROVIDER and SMTP_HOST',
    );
  }
  const minutes = Math.ceil(config.codeTtlSeconds / 60);
  const logged = async (message: { to: string; channel: string; scene: string }, send: () => Promise<void>) => {
    try {
      await send();
      logger.info(message, 'code sent');
    } catch (error) {
      logger.warn(
        { ...message, detail: error instanceof DeliveryError ? error.detail : String(error) },
        'code delivery failed',
      );
      throw error;
    }
  };
  return {
    async send(message) {
      const { to, channel, scene, code } = message;
      if (channel === 'email') {
        if (!email) return outbox.send(message);
        return logged({ to, channel, scene }, () => email.send({ to, site: config.site.name, scene, code, minutes }));
      }
      if (!sms) return outbox.send(message);
      const coded = { phone: to, scene, code, minutes };
      return logged({ to, channel, scene }, () => (channel === 'voice' ? sms.sendVoice(coded) : sms.sendSms(coded)));
    },
    async notify(notice) {
      const { to, channel, kind } = notice;
      if (channel === 'email') {
        if (!email) return outbox.notify(notice);
        return logged({ to, channel, scene: kind }, () => email.sendText(notice));
      }
      if (!sms) return outbox.notify(notice);
      // SMS providers send approved templates only: a notice goes out when one is configured for it.
      if (config.sms?.templates[kind] === undefined) {
        logger.warn({ to, kind }, `no SMS template for the "${kind}" notice (SMS_TEMPLATES); not sent by SMS`);
        return;
      }
      return logged({ to, channel, scene: kind }, () => sms.sendSms({ phone: to, scene: kind, code: '', minutes }));
    },
    close: () => email?.close(),
  };
};

/** Counts every send by the provider that carries it and its outcome (services/platform/metrics.ts). */
export const countedDelivery = (
  delivery: Delivery,
  config: Pick<Config, 'sms' | 'smtp'>,
  metrics: { codeSends: { inc(labels: Record<string, string>): void } },
): Delivery => ({
  async send(message) {
    const provider =
      message.channel === 'email' ? (config.smtp ? 'smtp' : 'outbox') : (config.sms?.provider ?? 'outbox');
    const labels = { provider, channel: message.channel };
    try {
      await delivery.send(message);
      metrics.codeSends.inc({ ...labels, outcome: 'sent' });
    } catch (error) {
      metrics.codeSends.inc({ ...labels, outcome: 'failed' });
      throw error;
    }
  },
  // Notices (the old phone told of a change) are not code sends: passed through uncounted.
  ...(delivery.notify ? { notify: (notice) => delivery.notify?.(notice) ?? Promise.resolve() } : {}),
  ...(delivery.close ? { close: () => delivery.close?.() } : {}),
});
