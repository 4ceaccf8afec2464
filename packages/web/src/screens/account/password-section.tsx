/**
 * The password: set the first one, or change it with the current one or (with a phone bound) with a
 * code to it. A change keeps this device signed in; the other devices are signed out in the same step when
 * the user leaves "sign out other devices" ticked (as whoever changed a stolen password would not).
 */

import { initPassword, sendPasswordUpdateCode } from '@edupass/account';
import { changePasswordByPhoneKeepingSession, changePasswordKeepingSession } from '@edupass/account/sessions';
import { checks } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { type Action, useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, type ReactNode, useContext, useEffect, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { rememberWeakPassword } from '../../session/weak-password.ts';
import { trackEvent } from '../../telemetry/telemetry.ts';
import { CodeInput } from '../../ui/account-fields.tsx';
import { Field } from '../../ui/field.tsx';
import { PhoneInput } from '../../ui/phone-input.tsx';
import { type Resumed, useResume, useResumed } from '../../ui/resume.ts';
import { useStepUp } from '../../ui/step-up.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { useSendCode } from '../../ui/use-send-code.ts';
import { useRuleError } from '../../ui/validation.ts';
import { PasswordChanged } from './account-layout.tsx';
import { CardsAfterPassword } from './cards-section.tsx';

/** What a change did to the other devices, for the notice. */
type Changed = (endedOthers: boolean) => string;

const useChanged = (onChanged: () => void): Changed => {
  const { t } = useI18n();
  const passwordChanged = useContext(PasswordChanged);
  return (endedOthers) => {
    rememberWeakPassword(false);
    passwordChanged();
    trackEvent('password_changed');
    onChanged();
    return t(endedOthers ? 'password.changedOthersOut' : 'password.changedKept');
  };
};

/**
 * A form that ends in the new password, typed twice, and its submit button; `children` come first.
 * `onSubmit` gets both passwords and runs the change with `action`; with `endOthers`, the choice to
 * sign out the other devices comes before the button. `panel` ("Confirm it is you") comes before the
 * form, which waits hidden while it is open.
 */
const NewPasswordForm = ({
  action,
  submitLabel,
  onSubmit,
  endOthers,
  panel,
  children,
}: {
  action: Action;
  submitLabel: string;
  onSubmit(password: string, confirm: string): void;
  endOthers?: { checked: boolean; onChange(checked: boolean): void };
  panel?: ReactNode;
  children: ReactNode;
}) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(password, confirm);
  };
  return (
    <>
      {panel}
      <form onSubmit={submit} noValidate hidden={panel != null}>
        {children}
        <Field
          label={t('form.newPassword')}
          hint={t('form.passwordHint')}
          value={password}
          onValue={setPassword}
          error={password ? ruleError('password', password) : null}
          bind={action.field('password')}
          type="password"
          autoComplete="new-password"
          maxLength={20}
        />
        <Field
          label={t('form.confirmPassword')}
          value={confirm}
          onValue={setConfirm}
          error={confirm && confirm !== password ? t('form.mismatch') : null}
          bind={action.field('confirm_password')}
          type="password"
          autoComplete="new-password"
          maxLength={20}
        />
        {endOthers ? (
          <div className="field">
            <label className="agree-row">
              <input
                type="checkbox"
                checked={endOthers.checked}
                onChange={(event) => endOthers.onChange(event.target.checked)}
              />
              {t('password.endOthers')}
            </label>
          </div>
        ) : null}
        <FormError message={action.error} onRetry={action.retry} />
        <Notice message={action.notice} />
        <button type="submit" className="button primary" aria-busy={action.busy}>
          {submitLabel}
        </button>
      </form>
    </>
  );
};

/** After signing in again the place is kept, never the password: only it is asked for again. */
const SET_PASSWORD = { form: 'set-password', fields: () => ({}) };

const SetFirstPassword = ({ onChanged }: { onChanged(): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const stepUp = useStepUp(action, SET_PASSWORD);
  const [typeAgain, setTypeAgain] = useState(false);
  useResume(SET_PASSWORD.form, ({ step }) => setTypeAgain(step === 'submit'));
  return (
    <NewPasswordForm
      action={action}
      submitLabel={t('password.setSubmit')}
      panel={stepUp.panel}
      onSubmit={(password, confirm) =>
        void stepUp.run(async () => {
          await initPassword(client, { password, confirm_password: confirm });
          onChanged();
        })
      }
    >
      <p>{t('password.none')}</p>
      {typeAgain ? <Notice message={t('password.typeAgain')} /> : null}
    </NewPasswordForm>
  );
};

const ByOldPassword = ({ onChanged }: { onChanged(): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const changed = useChanged(onChanged);
  const [old, setOld] = useState('');
  const [endOthers, setEndOthers] = useState(true);
  return (
    <NewPasswordForm
      action={action}
      submitLabel={t('password.submit')}
      endOthers={{ checked: endOthers, onChange: setEndOthers }}
      onSubmit={(password, confirm) => {
        if (checks.password(password) || password !== confirm) return void action.focusFirstInvalid();
        void action.run(async () => {
          await changePasswordKeepingSession(client, {
            old_password: old,
            password,
            confirm_password: confirm,
            end_other_sessions: endOthers,
          });
          setOld('');
          return changed(endOthers);
        });
      }}
    >
      <Field
        label={t('password.old')}
        value={old}
        onValue={setOld}
        bind={action.field('old_password')}
        type="password"
        autoComplete="current-password"
      />
    </NewPasswordForm>
  );
};

/** The change by a code to the phone: the number is kept across signing in again, the code and the password never. */
const BY_PHONE_CODE = 'password-by-phone';

/**
 * `resumed`: what this form kept before signing in again (the number, and whether a code send or the
 * change was waiting): the number comes back and the send goes on; a waiting change asks for the code
 * and the new password once more.
 */
const ByPhoneCode = ({ onChanged, resumed }: { onChanged(): void; resumed: Resumed | null }) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const action = useAction();
  const [phone, setPhone] = useState('');
  const stepUp = useStepUp(action, { form: BY_PHONE_CODE, fields: () => ({ phone }) });
  const changed = useChanged(onChanged);
  const { code, setCode, sender } = useSendCode(action, stepUp);
  const [endOthers, setEndOthers] = useState(true);
  const [typeAgain, setTypeAgain] = useState(false);
  useEffect(() => {
    if (!resumed) return;
    setPhone(resumed.fields.phone ?? '');
    setTypeAgain(resumed.step === 'submit');
  }, [resumed]);
  return (
    <NewPasswordForm
      action={action}
      submitLabel={t('password.submit')}
      endOthers={{ checked: endOthers, onChange: setEndOthers }}
      panel={stepUp.panel}
      onSubmit={(password, confirm) => {
        // This change takes the password once, so the two are compared here rather than by the server.
        if (checks.password(password) || password !== confirm) return void action.focusFirstInvalid();
        void stepUp.run(async () => {
          await changePasswordByPhoneKeepingSession(client, {
            phone_number: phone,
            captcha: code,
            password,
            end_other_sessions: endOthers,
          });
          setCode('');
          setTypeAgain(false);
          return changed(endOthers);
        });
      }}
    >
      <p>{t('password.byPhoneIntro')}</p>
      {typeAgain ? <Notice message={t('password.byPhoneAgain')} /> : null}
      <PhoneInput
        label={t('form.phone')}
        value={phone}
        onValue={setPhone}
        error={phone.length >= 11 ? ruleError('phone_number', phone) : null}
        bind={action.field('phone_number')}
      />
      <CodeInput
        value={code}
        onValue={setCode}
        bind={action.field('captcha')}
        blockedReason={checks.phone_number(phone) ? t('code.needPhone') : null}
        onSend={sender('password_update', phone, (proof) =>
          sendPasswordUpdateCode(client, { phone_number: phone }, proof),
        )}
        sendNow={resumed?.step === 'send' && phone === resumed.fields.phone}
      />
    </NewPasswordForm>
  );
};

export const PasswordSection = ({
  hasPassword,
  hasPhone,
  weak,
  onChanged,
  onPasswordChanged,
}: {
  hasPassword: boolean;
  hasPhone: boolean;
  /** The password was reported weak at sign-in: suggest a change. */
  weak: boolean;
  /** The first password was set. */
  onChanged(): void;
  /** The password was changed (other devices may have been signed out). */
  onPasswordChanged(): void;
}) => {
  const { t } = useI18n();
  // Back from signing in again in the middle of a change by phone code: that way, and it goes on.
  const resumed = useResumed(BY_PHONE_CODE);
  const [way, setWay] = useState<'old' | 'phone'>('old');
  useEffect(() => {
    if (resumed) setWay('phone');
  }, [resumed]);
  // Said here, not in the first-password form, which goes away once the password is set.
  const [notice, setNotice] = useState<string | null>(null);
  // A change may end the cards: what is said of them is read again after it.
  const [cardsRound, setCardsRound] = useState(0);
  const changed = () => {
    setCardsRound((n) => n + 1);
    onPasswordChanged();
  };
  return (
    <section className="subsection" aria-labelledby="password-title">
      <h2 id="password-title">{t('password.title')}</h2>
      <Notice message={notice} />
      {hasPassword && weak ? <p className="form-warning">{t('password.weak')}</p> : null}
      {/* Before the pupil chooses: what the new password does to the login cards. */}
      <CardsAfterPassword key={cardsRound} />
      {!hasPassword ? (
        <SetFirstPassword
          onChanged={() => {
            setNotice(t('password.setDone'));
            onChanged();
          }}
        />
      ) : !hasPhone ? (
        // Without a phone (a pupil's account, most often) the code way leads nowhere: no tab for it.
        <ByOldPassword onChanged={changed} />
      ) : (
        <Tabs
          label={t('password.title')}
          tabs={[
            { key: 'old', label: t('password.byOld') },
            { key: 'phone', label: t('password.byPhone') },
          ]}
          selected={way}
          onSelect={setWay}
        >
          {way === 'old' ? (
            <ByOldPassword onChanged={changed} />
          ) : (
            <ByPhoneCode onChanged={changed} resumed={resumed} />
          )}
        </Tabs>
      )}
    </section>
  );
};
