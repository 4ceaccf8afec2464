/** Start-up: the language and the first screen's chunk load together; a held session is checked. */
import { getProfile } from '@edupass/account';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { loadInitialLocale } from './i18n/i18n.ts';
import { getLocation } from './router/history.ts';
import { preload } from './router/lazy-route.tsx';
import { resolve } from './router/routes.ts';
import { client } from './session/account.ts';
import { checkAgreements } from './session/gate.ts';
import { captureReturn } from './session/return-target.ts';
import { initTelemetry } from './telemetry/telemetry.ts';
import './styles.css';

const start = async () => {
  const { path, query } = getLocation();
  captureReturn(path, query);
  preload(resolve(path, query).route);
  const session =
    client.session.get().status === 'signed-in'
      ? getProfile(client)
          .catch(() => undefined)
          .then(checkAgreements)
      : checkAgreements();
  await loadInitialLocale();
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  initTelemetry();
  await session;
};

void start();
