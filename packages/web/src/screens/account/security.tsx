/**
 * Account centre, "Sign-in & security": one row per way in or safeguard (what it is, its state, one
 * action), as large sites list them; a row opens its one form on a page of its own
 * (`/account/security/<row>`), whose Back link (or the browser's) returns to the list, with the
 * focus on the row that was opened.
 */
import { getPrivacy } from '@edupass/account';
import { listOwnCards } from '@edupass/account/edu';
import { secondFactorStatus } from '@edupass/account/second-factor';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useContext, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import type { TextKey } from '../../i18n/locales/en.ts';
import { takeFocusRequest } from '../../router/focus.ts';
import { useLocation } from '../../router/history.ts';
import { client } from '../../session/account.ts';
import { passwordReportedWeak } from '../../session/weak-password.ts';
import { Link } from '../../ui/link.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { maskEmail } from '../../ui/mask-email.ts';
import { AccountLayout, EduStanding } from './account-layout.tsx';
import { CardsSection } from './cards-section.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';
import { DevicesSection } from './devices-section.tsx';
import { EmailSection } from './email-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { PhoneSection } from './phone-section.tsx';
import { SecondFactorSection } from './second-factor-section.tsx';
import { FEW_RECOVERY_CODES, SECURITY_PATH, type SecurityRow, securityRowOf } from './security-rows.ts';
import { UsernameSection } from './username-section.tsx';

/**
 * Back to the list of rows; none while a pupil must first choose a password of their own (the list
 * would only lead back to the form).
 */
const BackToList = () => {
  const { t } = useI18n();
  if (useContext(EduStanding)?.must_change_password === true) return null;
  return (
    <p className="back-row">
      <Link href={SECURITY_PATH} className="back-link">
        <span aria-hidden="true">‹</span>
        {t('security.back')}
      </Link>
    </p>
  );
};

interface RowView {
  key: SecurityRow;
  name: TextKey;
  state: string;
  action: TextKey;
  /** A state that asks for attention (a weak password, few recovery codes left). */
  warn?: boolean;
}

/** The row whose form was open last: focused again when Back returns to the list. */
let lastOpened: SecurityRow | null = null;

const Security = () => {
  const { t } = useI18n();
  const { path } = useLocation();
  const open = securityRowOf(path);
  const privacy = useLoad(() => getPrivacy(client));
  const factors = useLoad(() => secondFactorStatus(client));
  // A pupil's login cards that still sign in: their row is shown while there are any.
  const cards = useLoad(() => listOwnCards(client));
  const liveCards = cards.data?.cards.length ?? 0;
  const privacyError = useLoadError(privacy);
  const data = privacy.data;
  const mfa = factors.data;
  // A password change may sign the other devices out: the list is read again.
  const [devicesRound, setDevicesRound] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const weak = passwordReportedWeak();

  // The screen stays mounted between the list and a form: focus moves here, not to the page heading.
  useEffect(() => {
    if (!data || !takeFocusRequest()) return;
    if (open) {
      lastOpened = open;
      const heading = box.current?.querySelector('h2');
      heading?.setAttribute('tabindex', '-1');
      heading?.focus();
    } else if (lastOpened) {
      box.current?.querySelector<HTMLElement>(`[data-row="${lastOpened}"]`)?.focus();
    }
  }, [open, data]);

  const reload = () => {
    privacy.reload();
    factors.reload();
    cards.reload();
  };
  const rows = (): RowView[] => {
    if (!data) return [];
    const enrolled = mfa ? mfa.totp || mfa.passkeys.length > 0 : false;
    const fewCodes = enrolled && mfa !== undefined && mfa.recovery_codes_left <= FEW_RECOVERY_CODES;
    return [
      {
        key: 'username',
        name: 'username.title',
        state: data.username || t('security.notSet'),
        action: data.username ? 'security.view' : 'security.set',
      },
      {
        key: 'password',
        name: 'password.title',
        state: t(data.has_password ? (weak ? 'security.passwordWeak' : 'security.passwordSet') : 'security.notSet'),
        action: data.has_password ? 'security.change' : 'security.set',
        warn: data.has_password && weak,
      },
      {
        key: 'phone',
        name: 'phone.title',
        state: data.phone_number || t('security.notBound'),
        action: data.phone_number ? 'security.change' : 'security.bind',
      },
      {
        key: 'email',
        name: 'email.title',
        state: data.email ? maskEmail(data.email) : t('security.notBound'),
        action: data.email ? 'security.change' : 'security.add',
      },
      {
        key: 'two-step',
        name: 'mfa.title',
        state: !mfa
          ? ''
          : !enrolled
            ? t('security.off')
            : fewCodes
              ? t('security.onFewCodes', { count: mfa.recovery_codes_left })
              : t('security.on'),
        action: enrolled ? 'security.manage' : 'security.setUp',
        warn: fewCodes,
      },
      { key: 'devices', name: 'devices.title', state: t('security.devicesState'), action: 'security.view' },
      ...(liveCards > 0
        ? [
            {
              key: 'cards',
              name: 'cards.title',
              state: t('security.cardsState', { count: liveCards }),
              action: 'security.view',
            } as const,
          ]
        : []),
      { key: 'delete', name: 'deleteAccount.title', state: '', action: 'security.delete' },
    ];
  };

  const form = () => {
    if (!data) return null;
    switch (open) {
      case 'username':
        return <UsernameSection current={data.username} onChanged={reload} />;
      case 'password':
        return (
          <PasswordSection
            hasPassword={data.has_password}
            hasPhone={data.phone_number !== ''}
            weak={weak}
            onChanged={reload}
            onPasswordChanged={() => {
              setDevicesRound((n) => n + 1);
              cards.reload();
            }}
          />
        );
      case 'phone':
        return <PhoneSection masked={data.phone_number} onChanged={reload} />;
      case 'email':
        return <EmailSection current={data.email} onChanged={reload} />;
      case 'two-step':
        return <SecondFactorSection onChanged={factors.reload} />;
      case 'devices':
        return <DevicesSection key={devicesRound} />;
      case 'cards':
        return <CardsSection />;
      case 'delete':
        return <DeleteAccountSection />;
      default:
        return null;
    }
  };

  return (
    <AccountLayout title={t('account.security')}>
      <FormError {...privacyError} />
      <div ref={box}>
        {!data ? (
          <p className="muted">{t('app.loading')}</p>
        ) : open ? (
          <>
            <BackToList />
            {form()}
          </>
        ) : (
          <ul className="security-rows">
            {rows().map((row) => (
              <li key={row.key}>
                <Link href={`${SECURITY_PATH}/${row.key}`} className="security-row" data-row={row.key}>
                  <span className="security-row-name">{t(row.name)}</span>{' '}
                  <span className={row.warn ? 'security-row-state warn' : 'security-row-state'}>{row.state}</span>{' '}
                  <span className="security-row-action">
                    {t(row.action)}
                    <span aria-hidden="true"> ›</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </AccountLayout>
  );
};

export default Security;
