/**
 * The few pages the provider renders itself (everything else is the web client): the sign-out
 * question of RP-initiated logout, its "signed out" answer when no application asked to go back,
 * and errors. Plain HTML in both of the product's languages, no scripts.
 */
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) => `<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
button{font:inherit;padding:.5rem 1rem;margin:.25rem .5rem .25rem 0}</style></head>
<body><main>${body}</main></body></html>`;

/** `form` is the provider's hidden form (with its anti-forgery value); the buttons submit it. */
export const logoutPage = (form: string) =>
  page(
    '退出登录 · Sign out',
    `<h1>退出登录？ Sign out?</h1>
<p>你将退出 EduPass 以及用它登录的所有应用。<br>You will be signed out of EduPass and of every application you signed in to with it.</p>
${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">退出登录 · Sign out</button>
<button type="submit" form="op.logoutForm">取消 · Stay signed in</button>`,
  );

export const signedOutPage = (appName: string | undefined) =>
  page(
    '已退出 · Signed out',
    `<h1>已退出 · Signed out</h1><p>${appName ? `${escapeHtml(appName)}: ` : ''}你已退出登录。You have signed out.</p>`,
  );

export const errorPage = (error: string, description: string | undefined) =>
  page(
    '出错了 · Something went wrong',
    `<h1>出错了 · Something went wrong</h1><p><code>${escapeHtml(error)}</code></p>${
      description ? `<p>${escapeHtml(description)}</p>` : ''
    }`,
  );
