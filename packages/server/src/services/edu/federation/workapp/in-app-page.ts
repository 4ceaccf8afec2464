/**
 * The page a DingTalk in-app browser gets at the start: it loads DingTalk's JSAPI, asks it for a
 * free-login code for the school's organisation (`dd.runtime.permission.requestAuthCode({corpId})`,
 * a code valid 5 minutes and used once), and goes back to the connector's `/app` address with it as
 * `auth_code` and the state. Where the JSAPI fails (not really inside DingTalk, or the app is not the
 * organisation's), it goes back with `error`, and the sign-in screen says the sign-in was refused.
 * Its own policy lets only DingTalk's script and its one inline script (by nonce) run.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from '../../../../context.ts';
import { workAppRedirectUri } from './settings.ts';
import type { WorkAppRef } from './sign-in.ts';

/** A value as a JavaScript literal safe inside a script element. */
const literal = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');

export const dingtalkInAppPage = (ctx: Context, c: WorkAppRef, state: string) => {
  const nonce = randomBytes(16).toString('base64');
  const back = `${workAppRedirectUri(ctx, c.code)}?${new URLSearchParams({ state })}`;
  const jsapi = ctx.config.eduDingtalkJsapiUrl;
  const script = `(function () {
  var back = ${literal(back)};
  var done = false;
  function go(query) { if (!done) { done = true; location.replace(back + '&' + query); } }
  function failed() { go('error=in_app_failed'); }
  try {
    dd.ready(function () {
      dd.runtime.permission.requestAuthCode({
        corpId: ${literal(c.workapp.corpId)},
        onSuccess: function (result) { go('auth_code=' + encodeURIComponent(result.code)); },
        onFail: failed
      });
    });
    if (dd.error) dd.error(failed);
  } catch (e) { failed(); }
})();`;
  const html = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>正在登录 · Signing in</title></head>
<body style="font: 18px/1.5 sans-serif; margin: 32px">
<p role="status">正在用钉钉登录…<br>Signing in with DingTalk…</p>
<script src="${jsapi.replace(/"/g, '&quot;')}"></script>
<script nonce="${nonce}">${script}</script>
</body></html>`;
  const policy = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' ${new URL(jsapi).origin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
  return { html, policy };
};
