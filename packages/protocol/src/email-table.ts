/** The e-mail account calls' part of the route table (routes.ts): reset, sign-in, add or change. */
import { loginResultAnswer, ticketAnswer } from './account-answers.ts';
import { NO_CONTENT as none } from './answer-schema.ts';
import { described } from './described-route.ts';
import {
  bindEmailRoute,
  checkEmailResetCodeRoute,
  loginByEmailRoute,
  sendEmailBindCodeRoute,
  sendEmailLoginCodeRoute,
  sendEmailResetCodeRoute,
} from './email-routes.ts';

export const emailTable = {
  sendEmailResetCode: described(
    sendEmailResetCodeRoute,
    "Send a password-reset code to an account's e-mail (204 whether or not one has it)",
    none,
  ),
  checkEmailResetCode: described(
    checkEmailResetCodeRoute,
    'Check an e-mail reset code; returns the ticket of password/reset',
    ticketAnswer,
  ),
  sendEmailLoginCode: described(
    sendEmailLoginCodeRoute,
    "Send a sign-in code to an account's e-mail (204 whether or not one has it)",
    none,
  ),
  loginByEmail: described(loginByEmailRoute, 'Sign in with e-mail and code', loginResultAnswer),
  sendEmailBindCode: described(sendEmailBindCodeRoute, 'Send a code to the e-mail address to add or change to', none),
  bindEmail: described(bindEmailRoute, "Add or change the account's e-mail address", none),
};
