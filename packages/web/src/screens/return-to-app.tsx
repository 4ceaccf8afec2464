/**
 * After sign-in, back to the application that sent the user: an OpenID Connect interaction is
 * completed (a third-party application first shows what it will receive, and what a child's missing
 * guardian consent keeps from it, to allow or deny), a return address
 * is checked by the server and followed. A refused address lands on the account centre with a notice;
 * an application asking for a fresh sign-in gets one (this session is ended, the sign-in screen shown).
 * The server finishes neither for an account with agreements left to sign (AGREEMENTS_UNSIGNED): the
 * agreements are checked again, the gate shows them, and the return resumes once they are signed.
 * Nor for a pupil still on the password the school printed (PASSWORD_CHANGE_REQUIRED): the pupil
 * chooses their own here, and the return resumes.
 */
import { isAuthError } from '@edupass/account';
import { checkReturn, completeInteraction, denyInteraction, interactionDetails } from '@edupass/account/identity';
import type { InteractionDetails } from '@edupass/protocol';
import { troubleOf } from '@edupass/ui-kit/network-trouble.ts';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import type { TextKey } from '../i18n/locales/en.ts';
import { chooseAgain, navigate } from '../router/history.ts';
import { client } from '../session/account.ts';
import { checkAgreements } from '../session/gate.ts';
import { handedToSchool, noteRefusedReturn } from '../session/return-notes.ts';
import { clearReturn, pendingAppReturn, returnCheckOf } from '../session/return-target.ts';
import { AppLogo } from '../ui/app-logo.tsx';
import { Screen } from '../ui/screen.tsx';
import { signOut } from '../ui/sign-out.ts';
import { PasswordSection } from './account/password-section.tsx';

/** One return per page: a screen mounted again (a re-render of the app's shell) must not resume twice. */
let returning = false;

const leave = (url: string) => {
  clearReturn();
  window.location.assign(url);
};

const agreementsUnsigned = (error: unknown) => isAuthError(error) && error.name === 'AGREEMENTS_UNSIGNED';
const passwordChoiceDue = (error: unknown) => isAuthError(error) && error.name === 'PASSWORD_CHANGE_REQUIRED';

/** The server's "sign the agreements first": the gate shows them; the return is kept and resumes after. */
const toTheGate = async () => {
  returning = false;
  await checkAgreements();
};

const finish = async (uid: string, consent: boolean) => {
  try {
    leave((await completeInteraction(client, uid, consent)).redirect_to);
  } catch (error) {
    if (agreementsUnsigned(error)) return toTheGate();
    if (!isAuthError(error) || error.name !== 'STEP_UP_REQUIRED') throw error;
    // The application wants a sign-in newer than this session: sign in again, the target is kept.
    await signOut();
    returning = false;
    navigate('/sign-in?notice=sign-in-again', { replace: true });
  }
};

const claimKey = (claim: string) => `claim.${claim}` as TextKey;

const Consent = ({ uid, details }: { uid: string; details: InteractionDetails }) => {
  const { t } = useI18n();
  const action = useAction();
  const app = details.app.name;
  return (
    <Screen title={t('grant.title', { app })}>
      <p className="return-app">
        <AppLogo name={app} url={details.app.logo_url} />
      </p>
      <p>{t('grant.body', { app })}</p>
      <ul className="claim-list">
        {details.claims.map((claim) => (
          <li key={claim}>{t(claimKey(claim))}</li>
        ))}
      </ul>
      {details.withheld.length > 0 ? (
        <>
          <p>{t('grant.withheld', { app })}</p>
          <ul className="claim-list">
            {details.withheld.map((claim) => (
              <li key={claim}>{t(claimKey(claim))}</li>
            ))}
          </ul>
        </>
      ) : null}
      <FormError message={action.error} onRetry={action.retry} />
      <div className="actions">
        <button
          type="button"
          className="button primary"
          aria-busy={action.busy}
          onClick={() => action.run(() => finish(uid, true))}
        >
          {t('grant.allow')}
        </button>
        <button
          type="button"
          className="button ghost"
          onClick={() => action.run(async () => leave((await denyInteraction(client, uid)).redirect_to))}
        >
          {t('grant.deny')}
        </button>
      </div>
    </Screen>
  );
};

const ReturnToApp = () => {
  const { t, errorText } = useI18n();
  const [consent, setConsent] = useState<{ uid: string; details: InteractionDetails } | undefined>(undefined);
  // The application being signed in to, named on the screen while a first-party sign-in completes.
  const [appName, setAppName] = useState<string | undefined>(undefined);
  const [error, setError] = useState<{ message: string; retry: (() => void) | null } | null>(null);
  const [round, setRound] = useState(0);
  const [choosingPassword, setChoosingPassword] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is the retry: the same return, once more
  useEffect(() => {
    const target = pendingAppReturn();
    if (target === undefined || returning) return;
    returning = true;
    const go = async () => {
      if (target.kind === 'redirect') {
        // Refused is refused; a server out of reach is not a refusal (the retry below asks again).
        const checked = await checkReturn(client, returnCheckOf(target)).catch((caught: unknown) => {
          if (troubleOf(caught) || agreementsUnsigned(caught)) throw caught;
          return undefined;
        });
        if (checked) leave(checked.redirect);
        else {
          clearReturn();
          noteRefusedReturn();
          returning = false;
          // Another address than the sign-in's own move to /account, so the app shows the account either way.
          navigate('/account?notice=return-refused', { replace: true });
        }
        return;
      }
      // A first-party application asks no consent: the sign-in screen's read of it is enough.
      if (target.firstParty !== undefined) {
        setAppName(target.firstParty.name);
        return finish(target.uid, false);
      }
      // The server answers only in the browser that started this sign-in (not from a link sent by someone else).
      const details = await interactionDetails(client, target.uid);
      if (details.consent) setConsent({ uid: target.uid, details });
      else {
        setAppName(details.app.name);
        await finish(target.uid, false);
      }
    };
    go().catch((caught: unknown) => {
      // Kept: the gate shows what is left to sign, and this screen resumes the return after it.
      if (agreementsUnsigned(caught)) return void toTheGate();
      returning = false;
      // Kept: the pupil chooses a password of their own below, then the same return goes on.
      if (passwordChoiceDue(caught)) return setChoosingPassword(true);
      const again = troubleOf(caught)
        ? () => {
            setError(null);
            setRound((n) => n + 1);
          }
        : null;
      // Kept for the retry when the network or the server failed; given up otherwise.
      if (!again) clearReturn();
      // An interaction unknown to this browser: expired, or a link to someone else's sign-in.
      const elsewhere = target.kind === 'interaction' && isAuthError(caught) && caught.name === 'NOT_FOUND';
      // Or one a school's sign-in named, which the server completed on the way back to the application
      // (the browser came back here afterwards): nothing is waiting, nothing to say.
      if (elsewhere && target.kind === 'interaction' && handedToSchool(target.uid)) {
        returning = false;
        return chooseAgain();
      }
      setError({ message: elsewhere ? t('return.notThisBrowser') : errorText(caught), retry: again });
    });
  }, [errorText, round, t]);
  if (consent) return <Consent uid={consent.uid} details={consent.details} />;
  if (choosingPassword) {
    const chosen = () => {
      setChoosingPassword(false);
      setRound((n) => n + 1);
    };
    return (
      <Screen title={t('return.title')}>
        <p className="form-warning" role="status">
          {t('password.chooseOwn')}
        </p>
        <PasswordSection hasPassword hasPhone={false} weak={false} onChanged={chosen} onPasswordChanged={chosen} />
      </Screen>
    );
  }
  return (
    <Screen title={t('return.title')}>
      {error ? (
        <>
          <FormError message={error.message} onRetry={error.retry} />
          <p>
            <a href="/account">{t('return.toAccount')}</a>
          </p>
        </>
      ) : (
        <p className="muted">{appName ? t('return.signingInTo', { app: appName }) : t('return.leaving')}</p>
      )}
    </Screen>
  );
};

export default ReturnToApp;
