/** The operator console's entry (console.html): its own shell, router and strings. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app.tsx';
import { initConsoleLocale } from './i18n/i18n.ts';
import { ConsoleKitTexts } from './i18n/kit-texts.tsx';
import './console.css';

initConsoleLocale();
const root = document.getElementById('console-root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ConsoleKitTexts>
        <ConsoleApp />
      </ConsoleKitTexts>
    </StrictMode>,
  );
}
