/**
 * The browser's side of a passkey ceremony, through @simplewebauthn/browser, loaded only when a
 * passkey is used (the sign-in screen stays small for everyone else).
 */
import type { WebAuthnJSON } from '@edupass/account/second-factor';

const library = () => import('@simplewebauthn/browser');

export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** Creates a passkey for the server's registration options; its answer for the server. */
export const createPasskey = async (options: WebAuthnJSON): Promise<WebAuthnJSON> => {
  const { startRegistration } = await library();
  const answer = await startRegistration({ optionsJSON: options as never });
  return answer as unknown as WebAuthnJSON;
};

/** Signs the server's challenge with a passkey; its answer for the server. */
export const signWithPasskey = async (options: WebAuthnJSON): Promise<WebAuthnJSON> => {
  const { startAuthentication } = await library();
  const answer = await startAuthentication({ optionsJSON: options as never });
  return answer as unknown as WebAuthnJSON;
};
