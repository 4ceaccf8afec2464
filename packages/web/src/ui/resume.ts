/**
 * A change that waited for a proof the account could not give on this page, kept across "sign in
 * again" (ui/step-up.tsx): which form on which page, whether it was sending a code or submitting, and
 * the form's fields (never a password or a code). Kept in this tab's sessionStorage, taken once, and
 * given back only to the same user on the same page within RESUME_MINUTES, so a sign-in by someone
 * else on a shared device finds an empty form.
 */
import { getProfile } from '@edupass/account';
import { useEffect, useRef, useState } from 'react';
import { client } from '../session/account.ts';

const KEY = 'edupass.resume';
const RESUME_MINUTES = 30;

export type ResumeStep = 'send' | 'submit';

export interface Resumed {
  form: string;
  step: ResumeStep;
  fields: Record<string, string>;
}

interface Kept extends Resumed {
  path: string;
  user: number;
  at: number;
}

/** What a form gives useStepUp so the action can go on after a new sign-in. */
export interface Resumable {
  /** The form's name, one per page. */
  form: string;
  /** The fields to put back (nothing secret). */
  fields(): Record<string, string>;
}

export const keepForResume = ({ form, fields }: Resumable, step: ResumeStep): void => {
  const user = client.session.get().user?.id;
  if (user === undefined) return;
  const kept: Kept = { form, step, fields: fields(), path: window.location.pathname, user, at: Date.now() };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage refused (private mode, full): the sign-in still returns to the page, with an empty form.
  }
};

/** Takes what was kept for `form` on this page, if anything. */
const take = (form: string): Kept | null => {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Kept | null;
    if (!kept || kept.form !== form || kept.path !== window.location.pathname) return null;
    sessionStorage.removeItem(KEY);
    return Date.now() - kept.at < RESUME_MINUTES * 60_000 ? kept : null;
  } catch {
    return null;
  }
};

/** What `form` left to resume, once the signed-in user is known to be the one who left it; else null. */
export const useResumed = (form: string): Resumed | null => {
  const [kept] = useState(() => take(form));
  const [resumed, setResumed] = useState<Resumed | null>(null);
  useEffect(() => {
    if (!kept) return;
    let live = true;
    const known = client.session.get().user;
    (known ? Promise.resolve(known) : getProfile(client)).then(
      (user) => {
        if (live && user.id === kept.user) setResumed({ form: kept.form, step: kept.step, fields: kept.fields });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [kept]);
  return resumed;
};

/**
 * Calls `resume` once with what `form` kept, when signing in again brought the same user back to it:
 * the form goes on with the action it was asked for (a submit, a code send).
 */
export const useResume = (form: string, resume: (resumed: Resumed) => void): void => {
  const resumed = useResumed(form);
  const latest = useRef(resume);
  latest.current = resume;
  useEffect(() => {
    if (resumed) latest.current(resumed);
  }, [resumed]);
};
