/** The UI kit's words (`KitTexts`: error sentences, the retry button) from the web client's translations. */
import type { FormField } from '@edupass/ui-kit/error-field.ts';
import { type KitTexts, KitTextsProvider } from '@edupass/ui-kit/kit-texts.tsx';
import { type ReactNode, useMemo } from 'react';
import { useI18n } from './i18n.ts';
import type { TextKey } from './locales/en.ts';

/**
 * What to say at an input a generic invalid request (E_1) names, where the catalogue's sentence (made
 * for a whole form) and the server's English would not do.
 */
const INVALID_FIELD_TEXT: Partial<Record<FormField, TextKey>> = {
  avatar_url: 'profile.avatarUrlInvalid',
};

export const WebKitTexts = ({ children }: { children: ReactNode }) => {
  const { t, errorText } = useI18n();
  const texts = useMemo<KitTexts>(
    () => ({
      errorText,
      retry: t('trouble.retry'),
      invalidFieldText: (field) => {
        const key = INVALID_FIELD_TEXT[field];
        return key === undefined ? undefined : t(key);
      },
    }),
    [t, errorText],
  );
  return <KitTextsProvider texts={texts}>{children}</KitTextsProvider>;
};
