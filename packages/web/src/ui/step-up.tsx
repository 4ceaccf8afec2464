/**
 * The proof the server asks for (STEP_UP_REQUIRED) before a takeover-prone change: the form shows
 * why, offers the password or a code to the account's own phone or e-mail, and repeats the change
 * once the proof is given.
 */
import { stepUpBySecondFactor, stepUpPasskeyOptions } from '@edupass/account/second-factor';
import { sendStepUpCode, stepUpByCode, stepUpByPassword, stepUpStatus } from '@edupass/account/step-up';
import { ClientCode, type StepUpStatus } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { type Action, useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { CodeInput } from './account-fields.tsx';
import { Field } from './field.tsx';
import { signWithPasskey } from './passkey.ts';
import { SecondFactorCode } from './second-factor-code.tsx';
import { useSendCode } from './use-send-code.ts';

export const isStepUpRequired = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === ClientCode.STEP_UP_REQUIRED;

export interface StepUp {
  /** Runs `work` in `action`; when the server asks for a proof, opens the panel and repeats `work` after it. */
  run: Action['run'];
  /** For calls outside `run` (a code send): true when the error was the ask, and the panel opened. */
  caught(error: unknown, retry: () => Promise<unknown>): boolean;
  /** Asks for the proof first when the session is not fresh (a change that leaves the page: third-party binding). */
  ensure: Action['run'];
  panel: ReactNode;
}

export const useStepUp = (action: Action): StepUp => {
  const [retry, setRetry] = useState<(() => Promise<unknown>) | null>(null);
  const [methods, setMethods] = useState<StepUpStatus['methods']>([]);
  const open = (work: () => Promise<unknown>) => {
    setRetry(() => work);
    void stepUpStatus(client).then(
      (status) => setMethods(status.methods),
      () => setMethods(['password']),
    );
  };
  const caught = (error: unknown, work: () => Promise<unknown>) => {
    if (!isStepUpRequired(error)) return false;
    open(work);
    return true;
  };
  const run = (work: () => Promise<unknown>) =>
    action.run(async () => {
      try {
        return await work();
      } catch (error) {
        caught(error, work);
        throw error;
      }
    });
  const ensure = (work: () => Promise<unknown>) =>
    action.run(async () => {
      if ((await stepUpStatus(client)).fresh) return work();
      open(work);
      return undefined;
    });
  const done = () => {
    const work = retry;
    setRetry(null);
    if (work) void run(work);
  };
  const panel = retry ? <StepUpPanel methods={methods} onProved={done} onCancel={() => setRetry(null)} /> : null;
  return { run, caught, ensure, panel };
};

const StepUpPanel = ({
  methods,
  onProved,
  onCancel,
}: {
  methods: StepUpStatus['methods'];
  onProved(): void;
  onCancel(): void;
}) => {
  const { t } = useI18n();
  const titleId = useId();
  const action = useAction();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [appCode, setAppCode] = useState('');
  const byCode = methods.includes('sms') || methods.includes('email');
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
    <section className="step-up" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('stepUp.title')}</h3>
      <p>{t('stepUp.intro')}</p>
      {methods.includes('password') ? (
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
          <p className="muted">{t(methods.includes('sms') ? 'stepUp.codeToPhone' : 'stepUp.codeToEmail')}</p>
          <CodeInput value={code} onValue={setCode} blockedReason={null} onSend={send} />
          <button type="submit" className="button primary" aria-busy={action.busy}>
            {t('stepUp.byCode')}
          </button>
        </form>
      ) : null}
      {methods.includes('totp') ? (
        <form onSubmit={(event) => prove(event, 'app')} noValidate>
          <p className="muted">{t('stepUp.bySecondFactor')}</p>
          <SecondFactorCode label={t('mfa.code')} value={appCode} onValue={setAppCode} />
          <button type="submit" className="button primary" aria-busy={action.busy}>
            {t('mfa.verify')}
          </button>
        </form>
      ) : null}
      {methods.includes('passkey') ? (
        <button type="button" className="button primary" onClick={() => prove(undefined, 'passkey')}>
          {t('stepUp.byPasskey')}
        </button>
      ) : null}
      <FormError message={action.error} onRetry={action.retry} />
      <button type="button" className="button secondary" onClick={onCancel}>
        {t('stepUp.cancel')}
      </button>
    </section>
  );
};
