/**
 * Whether the password of the last password sign-in was reported weak (`is_weak_password`): the
 * account centre then suggests a change. Kept for the tab only; the next sign-in says it again.
 */
const KEY = 'edupass.weak-password';

export const rememberWeakPassword = (weak: boolean) => {
  try {
    if (weak) sessionStorage.setItem(KEY, '1');
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage off (private mode): no suggestion, nothing else lost.
  }
};

export const passwordReportedWeak = (): boolean => {
  try {
    return sessionStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
};
