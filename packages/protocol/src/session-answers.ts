/** What the session calls answer (session-routes.ts exports their types), apart from the routes. */
import { boolean, integer, list, object, text } from './answer-schema.ts';

export const sessionSummaryAnswer = object({
  id: text(),
  /** As the browser sent it at sign-in; the client names the device and browser from it. */
  user_agent: text(),
  /** The address the sign-in came from, as stored; nothing is derived from it. */
  ip: text(),
  /** How it signed in: password, sms, wechat, qq… */
  method: text(),
  created_at: integer(),
  last_active_at: integer(),
  current: boolean(),
});

export const sessionListAnswer = list(sessionSummaryAnswer);
