/** The signed-in devices' part of the route table (routes.ts). */
import { NO_CONTENT as none } from './answer-schema.ts';
import { described } from './described-route.ts';
import { sessionListAnswer } from './session-answers.ts';
import {
  changePasswordByPhoneKeepingSessionRoute,
  changePasswordKeepingSessionRoute,
  endSessionRoute,
  listSessionsRoute,
} from './session-routes.ts';

export const sessionTable = {
  listSessions: described(listSessionsRoute, "The caller's signed-in devices (live sessions)", sessionListAnswer),
  endSession: described(endSessionRoute, 'Sign out one of your devices', none),
  changePasswordKeepingSession: described(
    changePasswordKeepingSessionRoute,
    'Change the password with the current one; this device stays signed in',
    none,
  ),
  changePasswordByPhoneKeepingSession: described(
    changePasswordByPhoneKeepingSessionRoute,
    'Change the password with a code to the bound phone; this device stays signed in',
    none,
  ),
};
