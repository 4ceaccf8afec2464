/**
 * The few pages the provider renders itself (everything else is the web client): the sign-out
 * question of RP-initiated logout, its "signed out" answer when no application asked to go back,
 * and errors. One language each, the visitor's (page-locale.ts), in the web client's look (its
 * colours, light or dark, 44 px targets); plain HTML, no scripts; each has a way on.
 */
import type { PageLocale } from './page-locale.ts';

const TEXTS = {
  'zh-CN': {
    signOutTitle: '退出登录',
    signOutAsk: '要退出登录吗？',
    signOutBody: '你将退出{site}，以及用它登录的所有应用。',
    signOutBodyApp: '{app}请你退出登录。你将退出{site}，以及用它登录的所有应用。',
    signOut: '退出登录',
    signOutAppOnly: '只退出{app}',
    stay: '不退出，回到我的账号',
    signedOutTitle: '已退出登录',
    signedOut: '你已退出{site}。',
    signedOutApp: '你已退出{app}和{site}。',
    signInAgain: '重新登录',
    errorTitle: '出错了',
    errorBody: '这一步没能完成。请回到首页重新开始。',
    errorBack: '回到首页',
    errorCode: '错误代码',
  },
  en: {
    signOutTitle: 'Sign out',
    signOutAsk: 'Sign out?',
    signOutBody: 'You will be signed out of {site} and of every application you signed in to with it.',
    signOutBodyApp:
      '{app} asks you to sign out. You will be signed out of {site} and of every application you signed in to with it.',
    signOut: 'Sign out',
    signOutAppOnly: 'Sign out of {app} only',
    stay: 'Stay signed in and go to my account',
    signedOutTitle: 'You have signed out',
    signedOut: 'You have signed out of {site}.',
    signedOutApp: 'You have signed out of {app} and {site}.',
    signInAgain: 'Sign in again',
    errorTitle: 'Something went wrong',
    errorBody: 'This step could not be finished. Go back to the start and try again.',
    errorBack: 'Back to the start',
    errorCode: 'Error code',
  },
} as const;

type TextKey = keyof (typeof TEXTS)['en'];

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The text of `key` in `locale`, with `{site}` and `{app}` filled in, escaped for HTML. */
const words = (locale: PageLocale, key: TextKey, names: { site: string; app?: string | undefined }) =>
  escapeHtml(TEXTS[locale][key].replaceAll('{site}', names.site).replaceAll('{app}', names.app ?? ''));

/** The web client's colours and sizes (packages/web/src/styles.css), light or dark as the system is. */
const STYLE = `:root{--text:#1f2937;--muted:#4b5563;--bg:#f3f4f6;--panel:#fff;--line:#d1d5db;--primary:#1d4ed8;--primary-dark:#1e40af;--on-primary:#fff;--focus:#f59e0b;
color-scheme:light dark;font-family:system-ui,-apple-system,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;font-size:16px;line-height:1.5;color:var(--text);background:var(--bg)}
@media (prefers-color-scheme:dark){:root{--text:#e5e7eb;--muted:#b0b7c3;--bg:#111827;--panel:#1f2937;--line:#4b5563;--primary:#8ab4f8;--primary-dark:#aecbfa;--on-primary:#111827}}
body{margin:0;padding:1rem}
header{max-width:28rem;margin:0 auto 1rem;font-weight:600}
main{max-width:28rem;margin:0 auto;background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:1.5rem;box-shadow:0 1px 3px rgb(0 0 0/8%)}
h1{font-size:1.5rem;margin:0 0 .75rem}
p{margin:0 0 1rem}
.muted{color:var(--muted);font-size:.875rem}
.actions{display:flex;flex-direction:column;gap:.75rem;margin-top:1.25rem}
.button{font:inherit;display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:.5rem 1rem;border-radius:6px;border:1px solid var(--primary);background:var(--panel);color:var(--primary);text-decoration:none;cursor:pointer;box-sizing:border-box;width:100%}
.button.primary{background:var(--primary);color:var(--on-primary)}
.button.primary:hover{background:var(--primary-dark)}
.button.ghost{border-color:transparent;background:transparent}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}`;

const page = (locale: PageLocale, site: string, title: string, body: string) => `<!DOCTYPE html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${escapeHtml(site)}</title>
<style>${STYLE}</style></head>
<body><header>${escapeHtml(site)}</header><main>${body}</main></body></html>`;

export interface PageNames {
  /** The site's name (SITE_NAME). */
  site: string;
  /** The application that sent the visitor here, when known. */
  app?: string | undefined;
}

/**
 * The sign-out question. `form` is the provider's hidden form (with its anti-forgery value); the
 * buttons submit it: with `logout` everything is signed out, without it only the application that
 * asked (when one did). The link keeps the visitor signed in.
 */
export const logoutPage = (locale: PageLocale, names: PageNames, form: string) => {
  const w = (key: TextKey) => words(locale, key, names);
  return page(
    locale,
    names.site,
    w('signOutTitle'),
    `<h1>${w('signOutAsk')}</h1>
<p>${w(names.app ? 'signOutBodyApp' : 'signOutBody')}</p>
${form}
<div class="actions">
<button class="button primary" autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${w('signOut')}</button>
${names.app ? `<button class="button" type="submit" form="op.logoutForm">${w('signOutAppOnly')}</button>` : ''}
<a class="button ghost" href="/account">${w('stay')}</a>
</div>`,
  );
};

export const signedOutPage = (locale: PageLocale, names: PageNames) => {
  const w = (key: TextKey) => words(locale, key, names);
  return page(
    locale,
    names.site,
    w('signedOutTitle'),
    `<h1>${w('signedOutTitle')}</h1><p>${w(names.app ? 'signedOutApp' : 'signedOut')}</p>
<div class="actions"><a class="button primary" href="/sign-in">${w('signInAgain')}</a></div>`,
  );
};

export const errorPage = (locale: PageLocale, site: string, error: string, description: string | undefined) => {
  const w = (key: TextKey) => words(locale, key, { site });
  return page(
    locale,
    site,
    w('errorTitle'),
    `<h1>${w('errorTitle')}</h1><p>${w('errorBody')}</p>
<p class="muted">${w('errorCode')}: <code>${escapeHtml(error)}</code>${description ? ` · ${escapeHtml(description)}` : ''}</p>
<div class="actions"><a class="button primary" href="/">${w('errorBack')}</a></div>`,
  );
};
