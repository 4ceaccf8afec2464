/**
 * "Sign in with your school": the browser goes to the server's start (a state cookie bound to this
 * browser, then the school's own sign-in page); the server sets the session cookie and sends it back to
 * `/?school=<code>`, or to `/?school=<code>&error=expired|refused|unavailable` when it failed. The
 * application waiting for the user stays in this tab's sessionStorage (return-target.ts) meanwhile; a
 * first-party product's sign-in is also named in the return address (`&interaction=`), and the server
 * completes it there and sends the browser straight on to the product when nothing is left to ask.
 * The last school chosen is remembered on this device (remembered-school.ts), so a pupil finds it
 * first next time.
 */
import { baseUrl } from '@edupass/account';
import { INTERACTION_PARAM, schoolSignInTable } from '@edupass/protocol';
import { client } from '../session/account.ts';
import { handOverToSchool } from '../session/return-notes.ts';
import { rememberSchool } from './remembered-school.ts';

/** The query mark of a return from a school's sign-in. */
export const SCHOOL_PARAM = 'school';

export type SchoolFailure = 'expired' | 'refused' | 'unavailable';

const schoolStartUrl = (code: string, interaction: string | undefined): string => {
  const back = new URL('/', window.location.origin);
  back.searchParams.set(SCHOOL_PARAM, code);
  if (interaction !== undefined) back.searchParams.set(INTERACTION_PARAM, interaction);
  const path = schoolSignInTable.startSchoolSignIn.path.replace(':code', encodeURIComponent(code));
  return `${baseUrl(client.config, 'tiger')}${path}?redirect=${encodeURIComponent(back.toString())}`;
};

export const startSchoolSignIn = (code: string): void => {
  rememberSchool(code);
  window.location.assign(schoolStartUrl(code, handOverToSchool()));
};

export const schoolFailure = (value: string | null): SchoolFailure | undefined =>
  value === 'expired' || value === 'refused' || value === 'unavailable' ? value : undefined;
