/**
 * Start-up: the language and the first screen's chunk load together; a held session is checked. The
 * other screens' text loads on the first interaction.
 */
import { convertCookie, getProfile } from '@edupass/account';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { loadInitialLocale, loadMoreText } from './i18n/i18n.ts';
import { WebKitTexts } from './i18n/kit-texts.tsx';
import { rememberedSchool } from './oauth/remembered-school.ts';
import { getLocation } from './router/history.ts';
import { preload } from './router/lazy-route.tsx';
import { resolve } from './router/routes.ts';
import { client } from './session/account.ts';
import { checkAgreements, watchSessionForGate } from './session/gate.ts';
import { keepGuardianCode } from './session/guardian-code.ts';
import { captureReturn } from './session/return-target.ts';
import { initTelemetry } from './telemetry/telemetry.ts';
import './styles.css';
import './account-centre.css';

/**
 * A session this browser holds only as its cookie, taken as the client's own tokens before a page only
 * users see (`forUsers`), opened signed out, sends the visitor to sign in: a school's sign-in that went
 * straight on to a product (oauth/school.ts) never loaded this web client to take it. Asked only on a
 * device that signed in with a school before; the sign-in screen itself asks nothing.
 */
const adoptSchoolSession = (forUsers: boolean): Promise<unknown> =>
  forUsers && rememberedSchool() !== null ? convertCookie(client).catch(() => undefined) : Promise.resolve();

const start = async () => {
  const { path, query } = getLocation();
  const screen = resolve(path, query);
  // Before the sign-in a signed-out guardian is sent to: the scanned link code waits in this tab.
  keepGuardianCode(path);
  // A page only users see, opened signed out: the sign-in that follows lands there.
  captureReturn(path, query, screen.access === 'user' && client.session.get().status !== 'signed-in');
  preload(screen.route);
  watchSessionForGate();
  const session =
    client.session.get().status === 'signed-in'
      ? getProfile(client)
          .catch(() => undefined)
          .then(checkAgreements)
      : adoptSchoolSession(screen.access === 'user').then(checkAgreements);
  await loadInitialLocale();
  const root = document.getElementById('root');
  if (!root) return;
  // A transition: React renders the first screen in slices, yielding to the browser between them,
  // rather than in one long task that holds up input (Total Blocking Time on a slow phone).
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <WebKitTexts>
          <App />
        </WebKitTexts>
      </StrictMode>,
    ),
  );
  initTelemetry();
  // The other screens' text, once the visitor does anything (not with the first screen).
  const more = () => void loadMoreText().catch(() => undefined);
  for (const type of ['pointerdown', 'keydown', 'focusin']) addEventListener(type, more, { once: true, passive: true });
  await session;
};

void start();
