/**
 * The words the kit's hooks and components say, from the app that renders them: the web client and the
 * console each provide `KitTexts` from their own translations, so the kit carries neither app's i18n.
 */
import { createContext, type ReactNode, useContext } from 'react';
import type { FormField } from './error-field.ts';

export interface KitTexts {
  /** The sentence shown for a failure (an `AuthError`, a network failure, anything thrown). */
  errorText(error: unknown): string;
  /** The label of the retry button under a failure the network or the server caused. */
  retry: string;
  /**
   * What to say at an input a generic invalid request (E_1) names, where the catalogue's sentence (made
   * for a whole form) and the server's English would not do; undefined for the catalogue's.
   */
  invalidFieldText?(field: FormField): string | undefined;
}

/**
 * Without a provider: the error's own message, in English (the apps always provide their own texts,
 * from their catalogues; the kit carries none of them, so a screen's first load carries only the
 * language it shows).
 */
const ENGLISH: KitTexts = {
  errorText: (error) => (error instanceof Error && error.message !== '' ? error.message : 'Something went wrong.'),
  retry: 'Try again',
};

const context = createContext<KitTexts>(ENGLISH);

export const KitTextsProvider = ({ texts, children }: { texts: KitTexts; children: ReactNode }) => (
  <context.Provider value={texts}>{children}</context.Provider>
);

export const useKitTexts = (): KitTexts => useContext(context);
