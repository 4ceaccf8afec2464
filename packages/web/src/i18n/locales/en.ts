/**
 * English text of the first screen (sign-in, the header, the consent banner, the fields, the codes and
 * the agreements box) and the catalogue's errors. The other screens' text is `en-more.ts`, loaded on the
 * first interaction or with any other screen (i18n.ts). The keys of both are the keys of every language.
 */
import type { ClientCodeName } from '@edupass/protocol';
import { errorsEn } from '@edupass/ui-kit/errors/en.ts';
import type { MoreTextKey } from './en-more.ts';

const text = {
  'app.title': '{site} — sign in',
  'app.skip': 'Skip to content',
  'app.loading': 'Loading…',
  'lang.label': 'Language',
  'consent.title': 'Help us improve {site}',
  'consent.body':
    'With your permission we record which pages you use, how long steps take and technical errors. Nothing is recorded until you agree.',
  'consent.allow': 'Allow',
  'consent.deny': 'No thanks',
  'chunk.title': 'This page could not load',
  'chunk.explain': 'Check your connection, then try again.',
  'chunk.retry': 'Try again',
  'chunk.reload': 'Reload the page',
  'chunk.details': 'Details for support',
  'trouble.retry': 'Try again',
  'agree.loadFailed': 'The agreements could not be loaded.',
  'form.phone': 'Phone number',
  'form.phoneHint': '11-digit mainland China mobile number',
  'form.code': 'Verification code',
  'form.codeHint': '6 digits',
  'form.password': 'Password',
  'form.email': 'E-mail address',
  'form.identity': 'Phone, username or e-mail',
  'form.cardUsername': 'Username',
  'form.cardUsernameHint': 'It is on your login card.',
  'form.show': 'Show',
  'form.hide': 'Hide',
  'form.working': 'Please wait…',
  'form.slow': 'The server is slow to answer. Still waiting…',
  'form.required': 'Fill this in.',
  'code.send': 'Get code',
  'code.sending': 'Sending…',
  'code.voice': 'No text message? Get the code by voice call',
  'code.resend': 'Resend code',
  'code.wait': 'Resend in {s} s',
  'code.waitReason': 'You can ask for a new code in {s} seconds.',
  'code.needPhone': 'Enter a valid phone number to get a code.',
  'code.needEmail': 'Enter a valid e-mail address to get a code.',
  'code.sent': 'We sent a code to {to}.',
  'agree.prefix': 'I have read and agree to the',
  'agree.and': 'and the',
  'agree.required': 'Tick the box to agree before you continue.',
  'agree.version': 'version {v}',
  'return.signInAgain': 'The application asks you to sign in again.',
  'agree.notFound': 'This agreement or version was not found.',
  'agree.otherLanguage': 'There is no English text of this version yet, so it is shown in Chinese.',
  'agree.close': 'Close',
  'agree.retention': 'How long we keep each kind of record',
  'signIn.title': 'Sign in',
  'signIn.titleFor': 'Sign in to {app}',
  'signIn.tabSms': 'SMS code',
  'signIn.tabPassword': 'Password',
  'signIn.tabEmail': 'E-mail code',
  'signIn.methods': 'Sign-in method',
  'signIn.submit': 'Sign in',
  'signIn.crowded': 'Many people are signing in right now. One moment, we will try again for you…',
  'signIn.smsNote': 'No account for this number yet? Signing in creates one.',
  'signIn.emailNote': 'Use the e-mail address of your account. No account has it? Sign up first.',
  'signIn.noAccount': 'No account yet?',
  'signIn.otherWays': 'Other ways to sign in',
  'signIn.toSignUp': 'Sign up',
  'signIn.forgot': 'Forgot password?',
  'signIn.cardForgot':
    'Forgot your password? Ask your teacher to reset it on the class page; you will get a new login card.',
  'signIn.or': 'or sign in with',
  'signIn.wechat': 'WeChat',
  'signIn.qq': 'QQ',
  'signIn.school': 'Your school',
  'signIn.card': 'Login card',
  'signIn.passwordChanged': 'Your password was changed. Sign in with the new one.',
  'signIn.signedOut': 'You are signed out.',
  'signIn.idleSignedOut':
    'You were signed out after {minutes} minutes without activity. Sign in again to go back to where you were.',
  'signIn.schoolSignOutFailed':
    'You are signed out here, but your school’s system did not say it signed you out. On a shared computer, close the browser.',
  'signIn.resetDone': 'Your password was reset. Sign in with the new one.',
  'signIn.accountDeleted':
    'You are signed out and your account is set to be deleted. Changed your mind? Sign in before it is deleted to keep it.',
  'signIn.verifyNote': 'For your safety we need to check that you are a person.',
  'mfa.passkeySignIn': 'Sign in with a passkey',
  'error.unknownCode': 'Something went wrong ({code}): {message}',
  'error.unexpected': 'Something unexpected went wrong. Please try again.',
  'code.wrongWhileWaiting': 'The code is wrong or has expired.',
};

export type FirstTextKey = keyof typeof text;
export type TextKey = FirstTextKey | MoreTextKey;
/** A language's first part. */
export interface LocaleText {
  text: Record<FirstTextKey, string>;
  errors: Record<ClientCodeName, string>;
}
/** A language's other part. */
export type MoreLocaleText = Record<MoreTextKey, string>;

const en: LocaleText = { text, errors: errorsEn };
export default en;
