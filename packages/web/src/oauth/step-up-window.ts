/**
 * Confirming it is you with WeChat or QQ: the provider's round trip runs in a window of its own, so the
 * page that asked keeps its form and repeats the change once the window says the proof is given. A
 * browser that opens the round trip as a tab with no way back to the opener (some phones) is covered
 * too: when the page is shown again it asks the server whether the session is now fresh.
 */
import { stepUpStatus } from '@edupass/account/step-up';
import { client } from '../session/account.ts';
import { authorizeUrl, type OauthProvider, STEP_UP_RETURN } from './start.ts';

const MESSAGE = 'edupass.step-up-proved';

/** Opens the round trip; `onProved` runs once, when the proof is given. Returns the clean-up. */
export const stepUpWindow = (provider: OauthProvider, onProved: () => void): (() => void) => {
  let over = false;
  const finish = () => {
    if (over) return;
    stop();
    onProved();
  };
  const onMessage = (event: MessageEvent) => {
    if (event.origin === window.location.origin && event.data === MESSAGE) finish();
  };
  const onShown = () => {
    if (document.visibilityState !== 'visible') return;
    void stepUpStatus(client).then(
      (status) => {
        if (status.fresh) finish();
      },
      () => undefined,
    );
  };
  const stop = () => {
    over = true;
    window.removeEventListener('message', onMessage);
    window.removeEventListener('focus', onShown);
    document.removeEventListener('visibilitychange', onShown);
  };
  window.addEventListener('message', onMessage);
  window.addEventListener('focus', onShown);
  document.addEventListener('visibilitychange', onShown);
  window.open(authorizeUrl(provider, STEP_UP_RETURN), '_blank');
  return stop;
};

/** In the round trip's window: tells the page that opened it, and closes; false when there is none. */
export const tellOpener = (): boolean => {
  const opener = window.opener as Window | null;
  if (!opener || opener.closed) return false;
  opener.postMessage(MESSAGE, window.location.origin);
  window.close();
  return true;
};
