/**
 * The proof the server asks for (STEP_UP_REQUIRED) before a takeover-prone change: the form shows
 * why, offers every proof the account can give (the password, a code to its own phone or e-mail, its
 * second factor, a round trip to its WeChat or QQ) and repeats the change once the proof is given.
 * An account that can give none here is offered to sign in again and come back to the same page.
 */
import { stepUpBySecondFactor, stepUpPasskeyOptions } from '@edupass/account/second-factor';
import { sendStepUpCode, stepUpByCode, stepUpByPassword, stepUpStatus } from '@edupass/account/step-up';
import { ClientCode, type StepUpStatus } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { type Action, useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { stepUpWindow } from '../oauth/step-up-window.ts';
import { navigate } from '../router/history.ts';
import { client } from '../session/account.ts';
import { captureReturn } from '../session/return-target.ts';
import { CodeInput } from './account-fields.tsx';
import { Field } from './field.tsx';
import { signWithPasskey } from './passkey.ts';
import { keepForResume, type Resumable, type ResumeStep } from './resume.ts';
import { AppOrRecoveryCode } from './second-factor-code.tsx';
import { signOut } from './sign-out.ts';
import { useSendCode } from './use-send-code.ts';

export const isStepUpRequired = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === ClientCode.STEP_UP_REQUIRED;

export interface StepUp {
  /**
   * Runs `work` in `action`; when the server asks for a proof, opens the panel (the form shows no error
   * meanwhile: the panel says why) and repeats `work` after it.
   */
  run: Action['run'];
  /** For calls outside `run` (a code send): true when the error was the ask, and the panel opened. */
  caught(error: unknown, retry: () => Promise<unknown>): boolean;
  /** Asks for the proof first when the session is not fresh (a change that leaves the page: third-party binding). */
  ensure: Action['run'];
  panel: ReactNode;
}

/**
 * `resumable`: what the form keeps when the account can give no proof here and signs in again, so the
 * action (a code send too) goes on once back (ui/resume.ts).
 */
export const useStepUp = (action: Action, resumable?: Resumable): StepUp => {
  const [retry, setRetry] = useState<(() => Promise<unknown>) | null>(null);
  // What the waiting work was: a code send (caught) or the form's submit.
  const [step, setStep] = useState<ResumeStep>('submit');
  // null until the server has said which proofs the account can give.
  const [methods, setMethods] = useState<StepUpStatus['methods'] | null>(null);
  const open = (work: () => Promise<unknown>, kind: ResumeStep) => {
    setRetry(() => work);
    setStep(kind);
    setMethods(null);
    void stepUpStatus(client).then(
      (status) => setMethods(status.methods),
      () => setMethods([]),
    );
  };
  const caught = (error: unknown, work: () => Promise<unknown>) => {
    if (!isStepUpRequired(error)) return false;
    open(work, 'send');
    return true;
  };
  const run = (work: () => Promise<unknown>) =>
    action.run(async () => {
      try {
        return await work();
      } catch (error) {
        if (!isStepUpRequired(error)) throw error;
        open(work, 'submit');
        return undefined;
      }
    });
  const ensure = (work: () => Promise<unknown>) =>
    action.run(async () => {
      if ((await stepUpStatus(client)).fresh) return work();
      open(work, 'submit');
      return undefined;
    });
  const done = () => {
    const work = retry;
    setRetry(null);
    if (work) void run(work);
  };
  const beforeSignIn = () => {
    if (resumable) keepForResume(resumable, step);
  };
  const panel = retry ? (
    <StepUpPanel methods={methods} onProved={done} onCancel={() => setRetry(null)} beforeSignIn={beforeSignIn} />
  ) : null;
  return { run, caught, ensure, panel };
};

const PROVIDERS = ['wechat', 'qq'] as const;

/** Signs out and opens the sign-in screen; the sign-in comes back to this page (and the form resumes). */
const signInAgain = async () => {
  captureReturn(window.location.pathname, new URLSearchParams(window.location.search), true);
  await signOut();
  navigate('/sign-in', { replace: true });
};

const StepUpPanel = ({
  methods,
  onProved,
  onCancel,
  beforeSignIn,
}: {
  methods: StepUpStatus['methods'] | null;
  onProved(): void;
  onCancel(): void;
  /** Keeps what the form resumes after signing in again. */
  beforeSignIn(): void;
}) => {
  const { t } = useI18n();
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // Keyboard and screen-reader users are taken to the panel, and back to where they were when it
  // closes (Cancel, Esc, or the proof given). Where they were is read while rendering: once committed,
  // the form behind the panel is hidden, which takes the focus away from it.
  const [before] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    heading.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, [before]);
  const action = useAction();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [appCode, setAppCode] = useState('');
  const has = (method: StepUpStatus['methods'][number]) => methods?.includes(method) ?? false;
  const byCode = has('sms') || has('email');
  const providers = PROVIDERS.filter(has);
  // A round trip to WeChat or QQ under way: its listeners end with the panel.
  const roundTrip = useRef<(() => void) | null>(null);
  useEffect(() => () => roundTrip.current?.(), []);
  const confirmWith = (provider: (typeof PROVIDERS)[number]) => {
    roundTrip.current?.();
    roundTrip.current = stepUpWindow(provider, onProved);
  };
  const proofs = {
    password: () => stepUpByPassword(client, { password }),
    code: () => stepUpByCode(client, { captcha: code }),
    app: () => stepUpBySecondFactor(client, { code: appCode.trim() }),
    passkey: async () =>
      stepUpBySecondFactor(client, { passkey: await signWithPasskey(await stepUpPasskeyOptions(client)) }),
  };
  const prove = (event: FormEvent | undefined, how: keyof typeof proofs) => {
    event?.preventDefault();
    void action.run(async () => {
      await proofs[how]();
      onProved();
    });
  };
  const { sender } = useSendCode(action);
  // Under a challenge policy this send is guarded like any other; the ticket names no identity,
  // since the page only knows the account's phone masked.
  const send = sender('step_up', '', (proof) => sendStepUpCode(client, {}, proof));
  return (
    <section
      className="step-up"
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <h3 id={titleId} tabIndex={-1} ref={heading}>
        {t('stepUp.title')}
      </h3>
      <p>{t('stepUp.intro')}</p>
      {has('password') ? (
        <form onSubmit={(event) => prove(event, 'password')} noValidate>
          <Field
            label={t('stepUp.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onValue={setPassword}
          />
          <button type="submit" className="button primary" aria-busy={action.busy}>
            {t('stepUp.byPassword')}
          </button>
        </form>
      ) : null}
      {byCode ? (
        <form onSubmit={(event) => prove(event, 'code')} noValidate>
          <p className="muted">{t(has('sms') ? 'stepUp.codeToPhone' : 'stepUp.codeToEmail')}</p>
          <CodeInput value={code} onValue={setCode} blockedReason={null} onSend={send} />
          <button type="submit" className="button primary" aria-busy={action.busy}>
            {t('stepUp.byCode')}
          </button>
        </form>
      ) : null}
      {has('totp') ? (
        <form onSubmit={(event) => prove(event, 'app')} noValidate>
          <p className="muted">{t('stepUp.bySecondFactor')}</p>
          <AppOrRecoveryCode value={appCode} onValue={setAppCode} recovery />
          <button type="submit" className="button primary" aria-busy={action.busy}>
            {t('mfa.verify')}
          </button>
        </form>
      ) : null}
      {has('passkey') ? (
        <button type="button" className="button primary" onClick={() => prove(undefined, 'passkey')}>
          {t('stepUp.byPasskey')}
        </button>
      ) : null}
      {providers.map((provider) => (
        <button key={provider} type="button" className="button primary" onClick={() => confirmWith(provider)}>
          {t('stepUp.byProvider', { name: t(provider === 'wechat' ? 'oauth.wechat' : 'oauth.qq') })}
        </button>
      ))}
      {methods?.length === 0 ? (
        <>
          <p>{t('stepUp.signInAgainWhy')}</p>
          <button
            type="button"
            className="button primary"
            onClick={() =>
              void action.run(async () => {
                beforeSignIn();
                await signInAgain();
              })
            }
          >
            {t('stepUp.signInAgain')}
          </button>
        </>
      ) : null}
      {methods === null ? <p role="status">{t('stepUp.loading')}</p> : null}
      <FormError message={action.error} onRetry={action.retry} />
      <button type="button" className="button secondary" onClick={onCancel}>
        {t('stepUp.cancel')}
      </button>
    </section>
  );
};
