/**
 * The guardian link code this tab kept from a scanned QR code (session/guardian-code.ts, at page load),
 * read when the guardian area opens and forgotten once a link succeeds.
 */
import { GUARDIAN_CODE_KEY } from '../../session/guardian-code.ts';

export const keptGuardianCode = (): string => {
  try {
    return sessionStorage.getItem(GUARDIAN_CODE_KEY) ?? '';
  } catch {
    return '';
  }
};

export const forgetGuardianCode = (): void => {
  try {
    sessionStorage.removeItem(GUARDIAN_CODE_KEY);
  } catch {
    // Nothing kept.
  }
};
