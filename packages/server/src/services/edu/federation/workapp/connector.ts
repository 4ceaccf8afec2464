/**
 * A school's work app (WeCom or DingTalk) as a school connector (../connector.ts): the browser comes
 * back to the connector's own `/app` address with a code and the state, from the QR-code login, from
 * WeCom's in-app OAuth, or from EduPass's in-app page inside DingTalk (the start's `page`). Neither
 * vendor has a sign-out of the app to send the browser to, nor logouts it posts: signing out is
 * EduPass's own.
 */
import { fail } from '../../../../errors.ts';
import { returnedToConnector, type SchoolConnector } from '../connector.ts';
import type { WorkAppConnector } from '../connectors.ts';
import { dingtalkInAppPage } from './in-app-page.ts';
import { finishWorkAppSignIn, inDingtalk, returnedCode, workAppStartUrl } from './sign-in.ts';

export const workAppConnector: SchoolConnector<WorkAppConnector> = {
  kind: 'workapp',
  returnRoute: 'finishAppSignIn',
  returnsByPost: false,
  returnedFor: returnedToConnector,
  start: async (ctx, connector, state, browser) => workAppStartUrl(ctx, connector, state, browser?.userAgent ?? ''),
  startPage: (ctx, connector, state, browser) =>
    connector.workapp.vendor === 'dingtalk' && inDingtalk(browser.userAgent)
      ? dingtalkInAppPage(ctx, connector, state)
      : undefined,
  finish: async (ctx, connector, fields) => {
    const { code, inApp } = returnedCode(fields);
    if (code === '') {
      ctx.logger.warn({ connector: connector.code, error: fields.error }, 'work app returned no code');
      return fail('AC3_27', 'The school system did not accept this sign-in. Sign in again.');
    }
    const identity = await finishWorkAppSignIn(ctx, connector, code, inApp);
    return { identity, ticket: `workapp:${code}` };
  },
  signOutUrl: async () => undefined,
};
