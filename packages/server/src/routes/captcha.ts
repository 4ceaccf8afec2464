/** Captcha routes: the rule, the vendor exchanges (platform and older tiger spellings) and the slide puzzle. */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { decideRule } from '../services/captcha/rule.ts';
import { answerSlideChallenge, createSlideChallenge } from '../services/captcha/slide.ts';
import {
  exchangeAliyun,
  exchangeGeetest,
  exchangeNetease,
  exchangeNextdata,
  exchangeTencent,
  startGeetest,
} from '../services/captcha/vendors.ts';

export const captchaRoutes = (app: FastifyInstance, ctx: Context) => {
  for (const name of ['captchaRule', 'captchaGraphRule'] as const) {
    defineRoute(app, ctx, name, async ({ body, client }) => {
      const { rule, appid, ticket } = await decideRule(ctx, body, client.ip);
      return { rule, appid, ticket };
    });
  }
  for (const name of ['geetestRegister', 'geetestRegisterSlide'] as const) {
    defineRoute(app, ctx, name, ({ body, client }) => startGeetest(ctx, body.appid, client.ip));
  }
  for (const name of ['geetestVerify', 'geetestTicket'] as const) {
    defineRoute(app, ctx, name, ({ body, client }) =>
      exchangeGeetest(ctx, body, { ip: client.ip, scene: body.scene, identity: body.identity }),
    );
  }
  for (const name of ['tencentCheck', 'tencentTicket'] as const) {
    defineRoute(app, ctx, name, ({ body, client }) =>
      exchangeTencent(ctx, body, { ip: client.ip, scene: body.scene, identity: body.identity }),
    );
  }
  defineRoute(app, ctx, 'neteaseCheck', ({ body, client }) =>
    exchangeNetease(ctx, body, { ip: client.ip, scene: body.scene, identity: body.identity }),
  );
  defineRoute(app, ctx, 'nextdataCheck', ({ body, client }) =>
    exchangeNextdata(ctx, body, { ip: client.ip, scene: body.scene, identity: body.identity }),
  );
  defineRoute(app, ctx, 'aliyunCheck', ({ body, client }) =>
    exchangeAliyun(ctx, body, { ip: client.ip, scene: body.captchaScene, identity: body.identity }),
  );
  defineRoute(app, ctx, 'slideChallenge', ({ body, client }) => createSlideChallenge(ctx, body, client.ip));
  defineRoute(app, ctx, 'slideVerify', ({ body, client }) => answerSlideChallenge(ctx, body, client.ip));
};
