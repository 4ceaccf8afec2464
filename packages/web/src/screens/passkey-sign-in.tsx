/**
 * Sign-in with a passkey alone: the browser offers the passkeys it holds for this site. The button is
 * on the first screen; the ceremony (the calls and @simplewebauthn/browser) loads on its click.
 */

import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn, signInForProduct } from '../session/after-sign-in.ts';
import { passkeysSupported, signWithPasskey } from '../ui/passkey.ts';

const signInWithPasskey = async () => {
  const { passkeySignIn, passkeySignInOptions } = await import('@edupass/account/second-factor');
  const response = await signWithPasskey(await passkeySignInOptions(client));
  const stayed = await signInForProduct((product) => passkeySignIn(client, { response, ...product }), 'passkey');
  if (stayed) await afterSignIn('passkey');
};

export const PasskeySignIn = () => {
  const { t } = useI18n();
  const action = useAction();
  if (!passkeysSupported()) return null;
  return (
    <div className="passkey-sign-in">
      <button
        type="button"
        className="button secondary block"
        onClick={() => void action.run(signInWithPasskey)}
        aria-busy={action.busy}
      >
        {t('mfa.passkeySignIn')}
      </button>
      <FormError message={action.error} onRetry={action.retry} />
    </div>
  );
};
