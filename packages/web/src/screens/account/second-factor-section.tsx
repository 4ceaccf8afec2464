/**
 * Two-step verification in the account centre: the authenticator app (QR code, key to type, a code
 * to confirm), passkeys, and recovery codes shown once. Adding or removing a factor asks for a fresh
 * proof first (the step-up panel), as the server requires.
 */
import {
  confirmTotp,
  newRecoveryCodes,
  removeTotp,
  type SecondFactorStatus,
  secondFactorStatus,
  startTotp,
  type TotpSetup,
} from '@edupass/account/second-factor';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useRef, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { site } from '../../site.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { downloadText, useCopy } from '../../ui/keep-text.ts';
import { useLoadError } from '../../ui/load-error.ts';
import { useResume } from '../../ui/resume.ts';
import { SecondFactorCode } from '../../ui/second-factor-code.tsx';
import { useStepUp } from '../../ui/step-up.tsx';
import { PasskeysList } from './passkeys-list.tsx';
import { FEW_RECOVERY_CODES } from './security-rows.ts';

/** Recovery codes just made: the only time they can be read, so they can be copied, saved or printed. */
export const RecoveryCodesShown = ({ codes, onDone }: { codes: string[]; onDone(): void }) => {
  const { t } = useI18n();
  const { copy, copied } = useCopy();
  const asText = () => `${t('mfa.recoveryFileTitle', { site: site.name })}\n\n${codes.join('\n')}\n`;
  return (
    <div className="recovery-codes" role="status">
      <p>{t('mfa.recoveryShown')}</p>
      <ul className="codes" aria-label={t('mfa.recovery')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions no-print">
        <button type="button" className="button secondary" onClick={() => void copy(codes.join('\n'))}>
          {t('mfa.recoveryCopy')}
        </button>
        <button
          type="button"
          className="button secondary"
          onClick={() => downloadText(`${site.name}-recovery-codes.txt`, asText())}
        >
          {t('mfa.recoveryDownload')}
        </button>
        <button type="button" className="button secondary" onClick={() => window.print()}>
          {t('mfa.recoveryPrint')}
        </button>
        <button type="button" className="button primary" onClick={onDone}>
          {t('mfa.recoveryDone')}
        </button>
      </div>
      <CopyOutcome copied={copied} done={t('mfa.recoveryCopied')} />
    </div>
  );
};

/** What a copy did: said once it is tried (the text stays on screen either way). */
const CopyOutcome = ({ copied, done }: { copied: string | false | null; done: string }) => {
  const { t } = useI18n();
  if (copied === null) return null;
  return copied === false ? <p className="form-error">{t('copy.failed')}</p> : <Notice message={done} />;
};

const AppSetup = ({ setup, onConfirmed }: { setup: TotpSetup; onConfirmed(codes: string[] | undefined): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const [code, setCode] = useState('');
  const { copy, copied } = useCopy();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await confirmTotp(client, { code: code.trim() });
      onConfirmed(answer.recovery_codes);
    });
  };
  return (
    <form onSubmit={submit} noValidate className="totp-setup">
      <p>{t('mfa.appScan')}</p>
      <img className="qr" alt={t('mfa.appQr')} src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qr_svg)}`} />
      {/* On a phone the QR code cannot be scanned by the phone showing it: the app opens from this link. */}
      <p>
        <a className="button secondary app-open" href={setup.uri}>
          {t('mfa.appOpen')}
        </a>
      </p>
      <p>
        {t('mfa.appKey')}: <code className="secret">{setup.secret}</code>{' '}
        <button type="button" className="button secondary" onClick={() => void copy(setup.secret)}>
          {t('mfa.appKeyCopy')}
        </button>
      </p>
      <CopyOutcome copied={copied} done={t('mfa.appKeyCopied')} />
      <SecondFactorCode label={t('mfa.appCode')} value={code} onValue={setCode} appOnly />
      <FormError message={action.error} onRetry={action.retry} />
      <button type="submit" className="button primary" aria-busy={action.busy}>
        {t('mfa.appConfirm')}
      </button>
    </form>
  );
};

const AuthenticatorApp = ({ status, onChanged }: { status: SecondFactorStatus; onChanged(codes?: string[]): void }) => {
  const { t } = useI18n();
  const action = useAction();
  // Set-up and removal go on after signing in again (ui/resume.ts): which one is kept, nothing secret.
  const asked = useRef<'set-up' | 'remove'>('set-up');
  const stepUp = useStepUp(action, { form: 'authenticator-app', fields: () => ({ asked: asked.current }) });
  const confirm = useConfirm();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const startSetUp = () => {
    asked.current = 'set-up';
    return stepUp.run(async () => setSetup(await startTotp(client)));
  };
  const remove = () => {
    asked.current = 'remove';
    return stepUp.run(async () => {
      await removeTotp(client);
      onChanged();
    });
  };
  useResume('authenticator-app', ({ step, fields }) => {
    if (step !== 'submit') return;
    if (fields.asked === 'remove' && status.totp) void remove();
    if (fields.asked === 'set-up' && !status.totp) void startSetUp();
  });
  return (
    <div className="factor">
      <h3>{t('mfa.app')}</h3>
      <p>{t(status.totp ? 'mfa.appOn' : 'mfa.appOff')}</p>
      {setup ? (
        <AppSetup
          setup={setup}
          onConfirmed={(codes) => {
            setSetup(null);
            onChanged(codes);
          }}
        />
      ) : status.totp ? (
        <button
          type="button"
          className="button secondary"
          onClick={async () => {
            const sure = await confirm.ask({
              title: t('mfa.appRemoveTitle'),
              body: t('mfa.appRemoveBody'),
              confirmLabel: t('mfa.appRemove'),
            });
            if (sure) await remove();
          }}
        >
          {t('mfa.appRemove')}
        </button>
      ) : (
        <button type="button" className="button primary" onClick={() => void startSetUp()} aria-busy={action.busy}>
          {t('mfa.appSetUp')}
        </button>
      )}
      <FormError message={action.error} onRetry={action.retry} />
      {stepUp.panel}
      {confirm.dialog}
    </div>
  );
};

const RecoveryCodes = ({ left, onNew }: { left: number; onNew(codes: string[]): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const stepUp = useStepUp(action);
  const confirm = useConfirm();
  const few = left <= FEW_RECOVERY_CODES;
  return (
    <div className="factor">
      <h3>{t('mfa.recovery')}</h3>
      {few ? (
        <p className="form-warning">{t('mfa.recoveryFew', { count: left })}</p>
      ) : (
        <p>{t('mfa.recoveryLeft', { count: left })}</p>
      )}
      <button
        type="button"
        className={few ? 'button primary' : 'button secondary'}
        onClick={async () => {
          const sure = await confirm.ask({
            title: t('mfa.recoveryNewTitle'),
            body: t('mfa.recoveryNewBody'),
            confirmLabel: t('mfa.recoveryNew'),
          });
          if (sure) await stepUp.run(async () => onNew((await newRecoveryCodes(client)).recovery_codes));
        }}
      >
        {t('mfa.recoveryNew')}
      </button>
      <FormError message={action.error} onRetry={action.retry} />
      {stepUp.panel}
      {confirm.dialog}
    </div>
  );
};

/**
 * The whole section; `onEnrolled` tells a caller (the console's enrolment) that a factor now exists,
 * `onChanged` that the factors or the recovery codes changed.
 */
export const SecondFactorSection = ({ onEnrolled, onChanged }: { onEnrolled?(): void; onChanged?(): void }) => {
  const { t } = useI18n();
  const status = useLoad(() => secondFactorStatus(client));
  const statusError = useLoadError(status);
  const [shown, setShown] = useState<string[] | null>(null);
  const changed = (codes?: string[]) => {
    if (codes) setShown(codes);
    status.reload();
    onChanged?.();
  };
  const data = status.data;
  const enrolled = data ? data.totp || data.passkeys.length > 0 : false;
  return (
    <section className="subsection" aria-labelledby="mfa-title">
      <h2 id="mfa-title">{t('mfa.title')}</h2>
      <p className="muted">{t(data?.required ? 'mfa.required' : 'mfa.intro')}</p>
      <FormError {...statusError} />
      {shown ? <RecoveryCodesShown codes={shown} onDone={() => setShown(null)} /> : null}
      {data ? (
        <>
          <AuthenticatorApp status={data} onChanged={changed} />
          <PasskeysList passkeys={data.passkeys} onChanged={changed} />
          {enrolled ? <RecoveryCodes left={data.recovery_codes_left} onNew={changed} /> : null}
          {enrolled && onEnrolled && !shown ? (
            <button type="button" className="button primary" onClick={onEnrolled}>
              {t('mfa.continue')}
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
};
