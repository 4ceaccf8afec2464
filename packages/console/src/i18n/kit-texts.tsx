/** The UI kit's words (`KitTexts`: error sentences, the retry button) from the console's translations. */
import { type KitTexts, KitTextsProvider } from '@edupass/ui-kit/kit-texts.tsx';
import { type ReactNode, useMemo } from 'react';
import { useConsoleText } from './i18n.ts';

export const ConsoleKitTexts = ({ children }: { children: ReactNode }) => {
  const { t, errorText } = useConsoleText();
  const texts = useMemo<KitTexts>(() => ({ errorText, retry: t('error.retry') }), [t, errorText]);
  return <KitTextsProvider texts={texts}>{children}</KitTextsProvider>;
};
