/**
 * A guardian link code from a scanned QR code (`/guardian#<code>`): taken from the address at page
 * load (and removed from it, so it is in no history entry or Referer) and kept in this tab until a
 * link succeeds, so a sign-in in between does not lose it: the guardian lands on the link form with
 * the code filled.
 */
/** Where this tab keeps the code (read and forgotten by the guardian area: screens/guardian/kept-code.ts). */
export const GUARDIAN_CODE_KEY = 'edupass.guardian-code';

const fromHash = () => {
  try {
    return decodeURIComponent(window.location.hash.slice(1)).trim();
  } catch {
    return '';
  }
};

/** On page load, and when the area opens: a code in `/guardian`'s address is kept, then removed from it. */
export const keepGuardianCode = (path: string): void => {
  if (path !== '/guardian' || !window.location.hash) return;
  const code = fromHash();
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
  if (!code) return;
  try {
    sessionStorage.setItem(GUARDIAN_CODE_KEY, code);
  } catch {
    // Storage off: the code is lost with a sign-in; typed by hand, it still works.
  }
};
