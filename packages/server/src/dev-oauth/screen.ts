/** The development provider's sign-in screen: pick a test identity or create one. Plain HTML, no script. */

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface ScreenInput {
  /** 'WeChat' or 'QQ'. */
  label: string;
  /** The confirm endpoint the forms go to (GET). */
  action: string;
  /** Hidden fields carried through (appid/client_id, redirect_uri, state). */
  carry: Record<string, string>;
  names: string[];
  /** Where the browser goes back to, shown so a developer sees it. */
  redirectUri: string;
}

const hidden = (carry: Record<string, string>) =>
  Object.entries(carry)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');

export const signInScreen = ({ label, action, carry, names, redirectUri }: ScreenInput) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(label)} 登录（开发用） · ${escapeHtml(label)} sign-in (development)</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}p.note{color:#666;font-size:.9rem}form{margin:.5rem 0}
button{font:inherit;padding:.5rem 1rem;cursor:pointer;min-width:12rem}input[type=text]{font:inherit;padding:.45rem}
code{word-break:break-all}</style></head>
<body><main>
<h1>${escapeHtml(label)} 登录（开发用）<br><small>${escapeHtml(label)} sign-in (development provider)</small></h1>
<p class="note">这是 EduPass 内置的开发用${escapeHtml(label)}，没有连接真实的${escapeHtml(label)}。选择一个测试身份，或新建一个。<br>
This is EduPass's built-in development ${escapeHtml(label)}; no real ${escapeHtml(label)} is involved. Choose a test identity or create one.
You will return to <code>${escapeHtml(redirectUri)}</code>.</p>
<h2>选择身份 · Choose an identity</h2>
${names
  .map(
    (name) =>
      `<form method="get" action="${escapeHtml(action)}">${hidden(carry)}<input type="hidden" name="identity" value="${escapeHtml(name)}"><button type="submit">${escapeHtml(name)}</button></form>`,
  )
  .join('\n')}
<h2>新建身份 · Create an identity</h2>
<form method="get" action="${escapeHtml(action)}">${hidden(carry)}
<label>昵称 · Nickname <input type="text" name="identity" required maxlength="20"></label>
<button type="submit">新建并登录 · Create and sign in</button></form>
</main></body></html>`;

export const errorScreen = (label: string, message: string) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(label)} 登录出错 · sign-in error</title></head>
<body><main><h1>${escapeHtml(label)} 登录出错 · sign-in error</h1><p>${escapeHtml(message)}</p></main></body></html>`;

/** A round avatar with the name's first character, for the test identities. */
export const avatarSvg = (seed: string) => {
  const hue = Number.parseInt(seed.slice(0, 4), 16) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="hsl(${hue},55%,55%)"/></svg>`;
};
