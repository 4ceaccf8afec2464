/**
 * Codes by e-mail through SMTP (nodemailer, pooled connections). A refusal becomes a DeliveryError
 * that says whose move it is: the address (5xx on RCPT), or the operator (login, connection).
 */
import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../delivery-config.ts';
import { DeliveryError } from './delivery-error.ts';
import { codeEmail } from './email-templates.ts';

export interface EmailCode {
  to: string;
  scene: string;
  code: string;
  minutes: number;
}

export interface EmailSender {
  send(message: EmailCode): Promise<void>;
  close(): void;
}

const failure = (error: unknown): DeliveryError => {
  const { code, responseCode, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    responseCode?: unknown;
    message?: unknown;
  };
  const detail = `SMTP ${String(code ?? '')} ${String(responseCode ?? '')} ${String(message ?? error)}`.trim();
  const addressRefused = code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500;
  const words = addressRefused
    ? 'the mail server refused this address. Check the address'
    : code === 'EAUTH'
      ? 'the mail server refused the server’s login. Please tell the site’s operator'
      : 'the mail server could not be reached. Try again later';
  return new DeliveryError(`The e-mail could not be sent: ${words}.`, detail, { cause: error });
};

export const smtpSender = (config: SmtpConfig, timeoutMs = 10_000): EmailSender => {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    pool: true,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    ...(config.user !== undefined && config.password !== undefined
      ? { auth: { user: config.user, pass: config.password } }
      : {}),
  });
  return {
    async send({ to, scene, code, minutes }) {
      const { subject, text, html } = codeEmail(scene, code, minutes);
      try {
        await transport.sendMail({ from: config.from, to, subject, text, html });
      } catch (error) {
        throw failure(error);
      }
    },
    close: () => transport.close(),
  };
};
