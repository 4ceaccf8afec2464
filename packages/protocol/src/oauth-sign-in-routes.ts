/**
 * The code steps of a WeChat or QQ sign-in (the return to the site's page the provider came back to,
 * account-routes.ts `authorizeWechatRoute`): apart from the first screen's routes, since only the
 * return's page calls them.
 */
import { ids, interaction, pid } from './account-route-fields.ts';
import { accountRoute as account, opt, s } from './route-fields.ts';

export const loginByWechatRoute = /* @__PURE__ */ account('POST', 'oauth/wechat', 'none', {
  body: {
    code: /* @__PURE__ */ s(),
    pid,
    appid: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
    agreement_ids: ids,
    state: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
    interaction,
  },
});
export const loginByQQRoute = /* @__PURE__ */ account('POST', 'oauth/qq', 'none', {
  body: {
    code: /* @__PURE__ */ s(),
    pid,
    agreement_ids: ids,
    state: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
    redirect_uri: /* @__PURE__ */ opt(/* @__PURE__ */ s(2048)),
    interaction,
  },
});
