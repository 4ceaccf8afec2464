/**
 * Codes by e-mail through SMTP (nodemailer, pooled connections). A refusal becomes a DeliveryError
 * that says whose move it is: the address (5xx on RCPT), or the operator (login, connection). The
 * settings check connects and logs in without sending anything.
 */
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import type { SmtpConfig } from '../config/delivery-config.ts';
import { codeEmail } from './code-texts.ts';
import { DeliveryError } from './delivery-error.ts';
import type { SettingsCheck } from './settings-check.ts';

export interface EmailCode {
  to: string;
  /** The site's name (SITE_NAME), which the message names. */
  site: string;
  scene: string;
  code: string;
  minutes: number;
}

export interface EmailSender {
  send(message: EmailCode): Promise<void>;
  /** A plain-text notice (no code). */
  sendText(message: { to: string; subject: string; text: string }): Promise<void>;
  /** Connects and logs in (nodemailer's verify), sends nothing. */
  check(): Promise<SettingsCheck>;
  close(): void;
}

const smtpError = (error: unknown) =>
  (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    responseCode?: unknown;
    message?: unknown;
  };

const failure = (error: unknown): DeliveryError => {
  const { code, responseCode, message } = smtpError(error);
  const detail = `SMTP ${String(code ?? '')} ${String(responseCode ?? '')} ${String(message ?? error)}`.trim();
  const addressRefused = code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500;
  const words = addressRefused
    ? 'the mail server refused this address. Check the address'
    : code === 'EAUTH'
      ? 'the mail server refused the server’s login. Please tell the site’s operator'
      : 'the mail server could not be reached. Try again later';
  return new DeliveryError(`The e-mail could not be sent: ${words}.`, detail, { cause: error });
};

/**
 * Refuses an address nodemailer would read as something else (a name, a comment, a group, a list):
 * the mail would go to a mailbox other than the one the limits counted. The e-mail rule already
 * refuses such addresses at the door; this keeps any other path from sending to one.
 */
const deliverableTo = (to: string): string => {
  const [only, ...others] = addressparser(to);
  if (only?.address === to && only.name === '' && others.length === 0) return to;
  throw new DeliveryError(
    'The e-mail could not be sent: the address is not one plain address. Check the address.',
    `refused to send to ${JSON.stringify(to)}: nodemailer reads it as ${JSON.stringify(addressparser(to))}`,
  );
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
    async send({ to, site, scene, code, minutes }) {
      const { subject, text, html } = codeEmail(site, scene, code, minutes);
      const address = deliverableTo(to);
      try {
        await transport.sendMail({ from: config.from, to: address, subject, text, html });
      } catch (error) {
        throw failure(error);
      }
    },
    async sendText({ to, subject, text }) {
      const address = deliverableTo(to);
      try {
        await transport.sendMail({ from: config.from, to: address, subject, text });
      } catch (error) {
        throw failure(error);
      }
    },
    async check() {
      const server = `SMTP_HOST=${config.host} SMTP_PORT=${config.port}`;
      try {
        await transport.verify();
      } catch (error) {
        const { code, message } = smtpError(error);
        return {
          ok: false,
          detail:
            code === 'EAUTH'
              ? `${server} refused the login (${String(message)}). Fix: set SMTP_USER and SMTP_PASSWORD to the mailbox's login; many providers want an app password (授权码) rather than the web password.`
              : `${server} could not be used (${String(code ?? '')} ${String(message ?? error)}). Fix: check SMTP_HOST and SMTP_PORT, SMTP_SECURE (true for 465, TLS from the first byte; false for 587 and 25, STARTTLS), and that this server may connect out to it.`,
        };
      }
      const login =
        config.user === undefined ? 'answers (no login: SMTP_USER unset)' : 'accepts the login of SMTP_USER';
      return { ok: true, detail: `${config.host}:${config.port} ${login}; sender ${config.from}` };
    },
    close: () => transport.close(),
  };
};
