/**
 * The captcha routes (spec §7, compatibility.md "Captcha rule"), each its own export and without its
 * summary (`routes` adds those for the docs), as account-routes.ts does for the account calls. Kept out
 * of routes.ts, whose aggregate tables are work at module scope that bundlers cannot drop: the captcha
 * SDK imports these, and its bundle must not carry the whole route table with them.
 */
import { opt, s } from './route-fields.ts';
import type { Fields, HostKind } from './routes.ts';

/* @__NO_SIDE_EFFECTS__ */
const captchaRoute = <const H extends HostKind, const B extends Fields>(host: H, path: string, body: B) =>
  ({ method: 'POST', path, host, auth: 'none', body, status: 200 }) as const;

// Lenient on purpose: existing callers send pid as a number, omit scene, or send ms timestamps.
const ruleBody = {
  identity: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
  scene: /* @__PURE__ */ opt(/* @__PURE__ */ s(64)),
  pid: { type: 'any', required: false },
  deviceId: /* @__PURE__ */ opt(/* @__PURE__ */ s(256)),
  timestamp: { type: 'number', required: false },
  capabilities: { type: 'string[]', required: false, maxLength: 8 },
} as const;
/**
 * EduPass's SDK also sends the scene and identity it asked the rule for, so the ticket is bound to
 * them; existing clients leave them out and get a ticket bound to neither.
 */
const binding = {
  scene: /* @__PURE__ */ opt(/* @__PURE__ */ s(64)),
  identity: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
} as const;
// Through a function so the spread stays out of module scope, where bundlers take it for a side effect.
/* @__NO_SIDE_EFFECTS__ */
const bound = <const F extends Fields>(fields: F) => ({ ...fields, ...binding });
const geetestRegisterBody = { appid: /* @__PURE__ */ s() } as const;
const geetestBody = bound({
  geetest_challenge: /* @__PURE__ */ s(128),
  geetest_validate: /* @__PURE__ */ s(128),
  geetest_seccode: /* @__PURE__ */ s(256),
  appid: /* @__PURE__ */ s(),
});
const tencentBody = bound({
  appid: /* @__PURE__ */ s(),
  tencentTicket: /* @__PURE__ */ s(4096),
  randomStr: /* @__PURE__ */ s(256),
});

// The platform service's calls: the ones the captcha SDK makes.
export const captchaRuleRoute = captchaRoute('platform', '/captcha/rule/v3', ruleBody);
export const geetestRegisterRoute = captchaRoute('platform', '/captcha/geetest/register', geetestRegisterBody);
export const geetestVerifyRoute = captchaRoute('platform', '/captcha/geetest/verify', geetestBody);
export const tencentCheckRoute = captchaRoute('platform', '/captcha/tencent', tencentBody);
export const neteaseCheckRoute = captchaRoute(
  'platform',
  '/captcha/netease',
  bound({
    validate: /* @__PURE__ */ s(4096),
    appid: /* @__PURE__ */ s(),
  }),
);
export const nextdataCheckRoute = captchaRoute(
  'platform',
  '/captcha/nextdata',
  bound({
    rid: /* @__PURE__ */ s(512),
    appid: /* @__PURE__ */ s(),
  }),
);
// `scene` here is Aliyun's scene (the spec's aliyun_login), so the binding scene travels as captchaScene.
export const aliyunCheckRoute = captchaRoute('platform', '/captcha/aliyun', {
  appKey: /* @__PURE__ */ s(),
  scene: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
  captchaVerifyParam: /* @__PURE__ */ s(8192),
  captchaScene: /* @__PURE__ */ opt(/* @__PURE__ */ s(64)),
  identity: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
});
export const slideChallengeRoute = captchaRoute('platform', '/captcha/slide/challenge', {
  scene: /* @__PURE__ */ opt(/* @__PURE__ */ s(64)),
  identity: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
  deviceId: /* @__PURE__ */ opt(/* @__PURE__ */ s(256)),
});
export const slideVerifyRoute = captchaRoute('platform', '/captcha/slide/verify', {
  id: /* @__PURE__ */ s(128),
  x: { type: 'number', required: true },
  trajectory: { type: 'any', required: true },
  input: /* @__PURE__ */ opt(/* @__PURE__ */ s(16)),
});

// The main backend's older spellings of the same calls (existing clients still use them).
export const captchaGraphRuleRoute = captchaRoute('tiger', '/tiger/captcha/graph/rule', ruleBody);
export const geetestRegisterSlideRoute = captchaRoute(
  'tiger',
  '/tiger/captcha/geetest/register_slide',
  geetestRegisterBody,
);
export const geetestTicketRoute = captchaRoute('tiger', '/tiger/captcha/tickets/geetest', geetestBody);
export const tencentTicketRoute = captchaRoute('tiger', '/tiger/captcha/tickets/waterproof-wall', tencentBody);
