/**
 * Back from WeChat or QQ (`/?oauth=<provider>&code=…&state=…`): sign in, or bind to the signed-in
 * user; an account not linked yet binds a phone or continues without one. With `then=step-up` (its own
 * window, oauth/step-up-window.ts) the return proves the session and tells the page that asked.
 */
import {
  bindQQ,
  bindWechat,
  checkOauthBind,
  createOauthUser,
  loginByQQ,
  loginByWechat,
  type OauthLoginResult,
  sendOauthBindCode,
} from '@edupass/account';
import { stepUpByOauth } from '@edupass/account/step-up';
import { checks } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { withCaptcha } from '../captcha/human-check.ts';
import { useI18n } from '../i18n/i18n.ts';
import { type OauthProvider, STEP_UP_RETURN, takePurpose } from '../oauth/start.ts';
import { tellOpener } from '../oauth/step-up-window.ts';
import { navigate, useLocation } from '../router/history.ts';
import { client } from '../session/account.ts';
import { afterSignIn, goOnSignedIn, signInForProduct } from '../session/after-sign-in.ts';
import { CodeInput } from '../ui/account-fields.tsx';
import { AgreementsCheck, currentAgreements, useAgreed } from '../ui/agreements-check.tsx';
import { Link } from '../ui/link.tsx';
import { PhoneInput } from '../ui/phone-input.tsx';
import { Screen } from '../ui/screen.tsx';
import { useSendCode } from '../ui/use-send-code.ts';
import { useRuleError, useTouched } from '../ui/validation.ts';
import { SecondStep } from './second-step.tsx';
import { askingSecondStep, type PendingSecondStep } from './second-step-ask.ts';

const isProvider = (value: string | null): value is OauthProvider => value === 'wechat' || value === 'qq';

/**
 * The server's answer to a return that was spent already (a reload, Back to it, a second tab) or
 * started too long ago: its state no longer matches this browser (AC3_16).
 */
const isSpentReturn = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { serverCode?: unknown }).serverCode === 'AC3_16';

/** The phone the bind code went to, masked, when it already has an account (checkOauthBind's `user_exists`). */
const accountOfPhone = async (ticket: string): Promise<string | null> => {
  const answer = await checkOauthBind(client, { oauth_ticket: ticket });
  return answer.user_exists === true ? String(answer.phone_number ?? '') : null;
};

/**
 * Binding a phone that already has an account links the WeChat or QQ account to that account, never
 * silently: once the code went to such a phone the form says so, names the choice on its button and
 * offers another phone or none; a submit before that was said checks first and stops to say it.
 */
const FinishOauth = ({ ticket, name }: { ticket: string; name: string }) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const touched = useTouched();
  const action = useAction();
  const { agreements, agreed, checkProps } = useAgreed(touched);
  const { code, setCode, sender, sentTo } = useSendCode(action);
  const [phone, setPhone] = useState('');
  // The phone (as typed) that has an account, and its masked form: the warning is shown for it.
  const [existing, setExisting] = useState<{ phone: string; masked: string } | null>(null);
  const joining = existing !== null && existing.phone === phone;
  const phoneBox = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!sentTo) return;
    let live = true;
    accountOfPhone(ticket).then(
      (masked) => {
        if (live && masked !== null) setExisting({ phone: sentTo, masked });
      },
      // Unknown yet: the submit checks again.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [sentTo, ticket]);

  const otherPhone = () => {
    setPhone('');
    setCode('');
    setExisting(null);
    phoneBox.current?.querySelector('input')?.focus();
  };

  const finish = (withPhone: boolean) => (event?: FormEvent) => {
    event?.preventDefault();
    touched.submit();
    if (!agreed || (withPhone && (checks.phone_number(phone) || checks.captcha(code)))) return;
    const input = { oauth_ticket: ticket, agreement_ids: agreements.map((a) => a.id) };
    void action.run(async () => {
      if (withPhone && !joining) {
        const masked = await accountOfPhone(ticket);
        if (masked !== null) return void setExisting({ phone, masked });
      }
      const stayed = await signInForProduct(
        (product) =>
          withPhone
            ? createOauthUser(client, { ...input, ...product, phone_number: phone, captcha: code })
            : // An account of the third-party identity alone: the server may ask for a human check (no identity to bind).
              withCaptcha('oauth', '', (proof) => createOauthUser(client, { ...input, ...product }, proof)),
        'oauth',
      );
      if (stayed) await afterSignIn('oauth');
    });
  };

  return (
    <form onSubmit={finish(true)} noValidate>
      <div ref={phoneBox}>
        <PhoneInput
          label={t('form.phone')}
          value={phone}
          onValue={setPhone}
          onBlur={touched.blur('phone')}
          error={touched.shown('phone') && phone ? ruleError('phone_number', phone) : null}
          bind={action.field('phone_number')}
        />
      </div>
      <CodeInput
        value={code}
        onValue={setCode}
        bind={action.field('captcha')}
        blockedReason={checks.phone_number(phone) ? t('code.needPhone') : null}
        onSend={sender('oauth', phone, (proof) =>
          sendOauthBindCode(client, { oauth_ticket: ticket, phone_number: phone }, proof),
        )}
      />
      {joining ? (
        <div className="phone-has-account" role="alert">
          <p className="form-warning">{t('oauth.phoneHasAccount', { phone: existing.masked, name })}</p>
          <button type="button" className="button secondary" onClick={otherPhone}>
            {t('oauth.otherPhone')}
          </button>
        </div>
      ) : null}
      <AgreementsCheck {...checkProps} />
      <FormError message={action.error} onRetry={action.retry} />
      <div className="actions">
        <button type="submit" className="button primary" aria-busy={action.busy}>
          {t(joining ? 'oauth.joinSubmit' : 'oauth.bindPhoneSubmit')}
        </button>
        <button type="button" className="button ghost" onClick={() => finish(false)()}>
          {t('oauth.createSubmit')}
        </button>
      </div>
    </form>
  );
};

const OauthCallback = () => {
  const { t, errorText } = useI18n();
  const { query } = useLocation();
  const provider = query.get('oauth');
  const name = isProvider(provider) ? t(provider === 'wechat' ? 'oauth.wechat' : 'oauth.qq') : '';
  const [error, setError] = useState<string | null>(null);
  const [ticket, setTicket] = useState<string | null>(null);
  const [secondStep, setSecondStep] = useState<PendingSecondStep | null>(null);
  // A bind started from the account centre goes back there, not to the sign-in page.
  const [binding, setBinding] = useState(false);
  // A step-up proved in a window the page that asked cannot be told about (no opener).
  const [proved, setProved] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = query.get('code');
    const state = query.get('state') ?? undefined;
    // The server could not start the sign-in (opened from another host name, provider not set up).
    const startError = query.get('error');
    if (startError && isProvider(provider)) {
      const site = window.location.host;
      setError(t(startError === 'wrong-site' ? 'oauth.wrongSite' : 'oauth.unavailable', { name, site }));
      return;
    }
    if (!code || !isProvider(provider)) {
      setError(t('oauth.stateMismatch'));
      return;
    }
    if (query.get('then') === STEP_UP_RETURN) {
      setBinding(true);
      stepUpByOauth(client, { provider, code, state: state ?? '' }).then(
        () => setProved(!tellOpener()),
        (caught: unknown) => setError(isSpentReturn(caught) ? t('oauth.returnSpent', { name }) : errorText(caught)),
      );
      return;
    }
    const purpose = takePurpose(provider);
    setBinding(purpose === 'bind');
    const run = async () => {
      if (purpose === 'bind') {
        if (provider === 'wechat') await bindWechat(client, { code, state });
        else await bindQQ(client, { code, state });
        navigate(`/account/connections?bound=${provider}`, { replace: true });
        return;
      }
      const agreement_ids = (await currentAgreements().catch(() => [])).map((a) => a.id);
      // For the product this browser waits on, if any: kept with the return across the round trip.
      const signedIn = signInForProduct((product) => {
        const input = { code, state, agreement_ids, ...product };
        return provider === 'wechat' ? loginByWechat(client, input) : loginByQQ(client, input);
      }, provider);
      const result: OauthLoginResult | undefined = await askingSecondStep(signedIn, provider, setSecondStep);
      if (!result) return;
      if ('auth' in result) await afterSignIn(provider);
      else setTicket(result.oauth_ticket);
    };
    run().catch((caught: unknown) => {
      if (!isSpentReturn(caught)) return setError(errorText(caught));
      // Opened again once it was used: signed in already, the visitor goes on; else says so, with a way back.
      if (client.session.get().status === 'signed-in') return goOnSignedIn();
      setError(t('oauth.returnSpent', { name }));
    });
  }, [provider, name, query, t, errorText]);

  return (
    <Screen title={ticket ? t('oauth.finishTitle', { name }) : name || t('signIn.title')}>
      {secondStep ? (
        <SecondStep pending={secondStep} />
      ) : proved ? (
        <>
          <Notice message={t('stepUp.providerDone')} />
          <p className="aside">
            <Link href="/account/security">{t('oauth.backToAccount')}</Link>
          </p>
        </>
      ) : ticket ? (
        <>
          <p>{t('oauth.finishIntro', { name })}</p>
          <FinishOauth ticket={ticket} name={name} />
        </>
      ) : error ? (
        <>
          <FormError message={error} />
          <p className="aside">
            {binding ? (
              <Link href="/account/connections">{t('oauth.backToAccount')}</Link>
            ) : (
              <Link href="/">{t('reset.back')}</Link>
            )}
          </p>
        </>
      ) : (
        <p role="status">{t('oauth.working', { name })}</p>
      )}
    </Screen>
  );
};

export default OauthCallback;
