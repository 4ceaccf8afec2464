/**
 * Notes this tab keeps for the screens after a return to an application, apart from the return itself
 * (return-target.ts, which the first screen loads): none of them is read before a sign-in.
 */
import { pendingAppReturn } from './return-target.ts';

const REFUSED = 'edupass.return-refused';

/**
 * A refused return address, for the account centre to say so once. Kept beside the target rather
 * than in the address: the sign-in screen's own move to the account centre may come after ours.
 */
export const noteRefusedReturn = (): void => {
  try {
    sessionStorage.setItem(REFUSED, '1');
  } catch {
    // Storage off: no notice.
  }
};

export const takeRefusedReturn = (): boolean => {
  try {
    const refused = sessionStorage.getItem(REFUSED) === '1';
    sessionStorage.removeItem(REFUSED);
    return refused;
  } catch {
    return false;
  }
};

const HANDED_TO_SCHOOL = 'edupass.return-school';

/**
 * The first-party product's sign-in this tab waits on, for a school's sign-in to name in the address it
 * returns to (oauth/school.ts): the server completes it there when nothing is left to ask, and the
 * browser goes from the school's system straight on to the product, without this web client. Noted as
 * handed over, so that a page of this tab loaded later that finds it gone goes on without a word: the
 * server most likely completed it (screens/return-to-app.tsx).
 */
export const handOverToSchool = (): string | undefined => {
  const target = pendingAppReturn();
  if (target?.kind !== 'interaction' || target.firstParty === undefined) return undefined;
  try {
    sessionStorage.setItem(HANDED_TO_SCHOOL, target.uid);
  } catch {
    // Storage off: the return itself was not kept either.
  }
  return target.uid;
};

/** Whether `uid` was handed to a school's sign-in that has not come back to this web client. */
export const handedToSchool = (uid: string): boolean => {
  try {
    return sessionStorage.getItem(HANDED_TO_SCHOOL) === uid;
  } catch {
    return false;
  }
};

/** The school's sign-in came back to this web client: whatever it named is this client's to complete. */
export const backFromSchool = (): void => {
  try {
    sessionStorage.removeItem(HANDED_TO_SCHOOL);
  } catch {
    // Storage off: nothing was noted.
  }
};
