/**
 * A session's sign-in method (`phone`, `password`, `oauth_wechat`, `school_cas`,
 * `password+second_factor`, …, as the server records it) in the operator's words. A method this
 * console does not know yet is shown as recorded rather than hidden.
 */

import type { ConsoleKey } from '../i18n/en.ts';
import type { ConsoleI18n } from '../i18n/i18n.ts';

const METHOD_KEYS: Record<string, ConsoleKey> = {
  password: 'method.password',
  phone: 'method.phone',
  phone_silent: 'method.phoneSilent',
  email: 'method.email',
  register_phone: 'method.registerPhone',
  register_email: 'method.registerEmail',
  oauth_wechat: 'method.wechat',
  oauth_qq: 'method.qq',
  passkey: 'method.passkey',
  badge: 'method.badge',
  school_cas: 'method.schoolCas',
  school_saml: 'method.schoolSaml',
  school_oidc: 'method.schoolOidc',
};

const SECOND_FACTOR = '+second_factor';

export const signInMethodName = (method: string, t: ConsoleI18n['t']): string => {
  const withSecondFactor = method.endsWith(SECOND_FACTOR);
  const base = withSecondFactor ? method.slice(0, -SECOND_FACTOR.length) : method;
  const key = METHOD_KEYS[base];
  const name = key === undefined ? base : t(key);
  return withSecondFactor ? t('method.withSecondFactor', { method: name }) : name;
};
