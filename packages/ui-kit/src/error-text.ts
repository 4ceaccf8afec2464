/**
 * The i18n pieces the web client and the operator console share: filling `{name}` placeholders, and a
 * human sentence for any error from a language's catalogue texts (errors/*.ts).
 */
import { ClientCode, type ClientCodeName, clientCodeName, INVALID_REQUEST_MESSAGE } from '@edupass/protocol';
import { TROUBLE_TEXT, troubleOf } from './network-trouble.ts';

export type Params = Record<string, string | number>;

export const fill = (template: string, params?: Params): string =>
  params ? template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole)) : template;

export interface ErrorTexts {
  /** The catalogue's errors by client code name. */
  errors: Record<ClientCodeName, string>;
  /** For a code the catalogue does not know; `{code}` and `{message}` are filled in. */
  unknownCode: string;
  /** For anything that is not a coded error. */
  unexpected: string;
  /** The server's detail of an invalid request in this language (it writes English); as written when absent. */
  detail?(english: string): string;
}

const isCodedError = (value: unknown): value is { code: number; message: string; serverCode?: string } =>
  typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';

/**
 * The server's own words for a generic invalid request (E_1 without a more precise client code), e.g.
 * which vendor keys are missing: the detail the catalogue sentence cannot know. Undefined when the answer
 * carried only the generic message, and for an E_1 naming a rule (INVALID_PHONE…), whose sentence says it all;
 * also the rule a staff password missed (E_20).
 */
const invalidRequestDetail = (error: { code: number; message: string; serverCode?: string }): string | undefined => {
  const generic = error.serverCode === 'E_1' && error.code === ClientCode.INVALID_REQUEST;
  // A staff password's refusal (E_20) names the rule it missed: its length, kinds or reuse.
  if (!generic && error.serverCode !== 'E_20') return undefined;
  const detail = error.message.trim();
  return detail && detail !== error.serverCode && detail !== INVALID_REQUEST_MESSAGE ? detail : undefined;
};

/**
 * Catalogue errors by name (never the server's internal code), anything else said plainly. A generic
 * invalid request (E_1) adds the server's detail after the catalogue sentence; other codes show the sentence alone.
 * A network or server failure (`troubleOf`) reads as one, whichever call met it: never as the captcha's fault.
 */
export const describeError = (texts: ErrorTexts, error: unknown): string => {
  const trouble = troubleOf(error);
  // The network or the server failed, not what the visitor did: say so, whatever the call (the captcha included).
  if (trouble && !(isCodedError(error) && error.code !== ClientCode.CAPTCHA_ERROR)) {
    return texts.errors[TROUBLE_TEXT[trouble]];
  }
  if (isCodedError(error)) {
    // GCAP_1 shares INVALID_CAPTCHA's number, but it is the human check that failed, not the SMS code.
    if (error.serverCode === 'GCAP_1') return texts.errors.CAPTCHA_REJECTED;
    const name = clientCodeName(error.code);
    if (name) {
      const detail = invalidRequestDetail(error);
      return detail ? `${texts.errors[name]} ${texts.detail?.(detail) ?? detail}` : texts.errors[name];
    }
    return fill(texts.unknownCode, { code: error.serverCode ?? error.code, message: error.message });
  }
  return texts.unexpected;
};
