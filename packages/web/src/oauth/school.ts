/**
 * "Sign in with your school": the browser goes to the server's start (a state cookie bound to this
 * browser, then the school's own sign-in page); the server sets the session cookie and sends it back to
 * `/?school=<code>`, or to `/?school=<code>&error=expired|refused|unavailable` when it failed. The
 * application waiting for the user stays in this tab's sessionStorage (return-target.ts) meanwhile.
 * The last school chosen is remembered on this device, so a pupil finds it first next time.
 */
import { baseUrl } from '@edupass/account';
import { schoolSignInTable } from '@edupass/protocol';
import { client } from '../session/account.ts';

/** The query mark of a return from a school's sign-in. */
export const SCHOOL_PARAM = 'school';

export type SchoolFailure = 'expired' | 'refused' | 'unavailable';

const REMEMBERED = 'edupass.school';

export const schoolStartUrl = (code: string): string => {
  const back = `${window.location.origin}/?${SCHOOL_PARAM}=${encodeURIComponent(code)}`;
  const path = schoolSignInTable.startSchoolSignIn.path.replace(':code', encodeURIComponent(code));
  return `${baseUrl(client.config, 'tiger')}${path}?redirect=${encodeURIComponent(back)}`;
};

export const rememberedSchool = (): string | null => {
  try {
    return localStorage.getItem(REMEMBERED);
  } catch {
    return null;
  }
};

export const startSchoolSignIn = (code: string): void => {
  try {
    localStorage.setItem(REMEMBERED, code);
  } catch {
    // Storage off: nothing is remembered.
  }
  window.location.assign(schoolStartUrl(code));
};

export const schoolFailure = (value: string | null): SchoolFailure | undefined =>
  value === 'expired' || value === 'refused' || value === 'unavailable' ? value : undefined;
