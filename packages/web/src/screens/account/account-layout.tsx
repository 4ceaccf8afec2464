/** The account centre's frame: who is signed in, the sections, sign out, the warning before a staff session's idle time-out. */
import { getProfile } from '@edupass/account';
import { useSession } from '@edupass/account/react';
import { type EduMemberships, isDefaultNickname } from '@edupass/protocol';
import { LazyImage } from '@edupass/ui-kit/lazy-image.tsx';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { createContext, type ReactNode, useEffect } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { navigate, useLocation } from '../../router/history.ts';
import { client } from '../../session/account.ts';
import { hasTeachingArea, loadMemberships } from '../../session/edu.ts';
import { setTrackedUser, trackEvent } from '../../telemetry/telemetry.ts';
import { avatarInitials } from '../../ui/avatar-initials.ts';
import { StaffIdleWarning } from '../../ui/idle-warning.tsx';
import { Link } from '../../ui/link.tsx';
import { shownNickname } from '../../ui/nickname.ts';
import { useHeadingFocus } from '../../ui/screen.tsx';
import { signOutAndLeave } from '../../ui/sign-out.ts';
import { ConsentWaiting } from './consent-waiting.tsx';
import { SECURITY_PATH as SECURITY } from './security-rows.ts';

const SECTIONS = [
  { href: '/account', key: 'account.profile' },
  { href: SECURITY, key: 'account.security' },
  { href: '/account/connections', key: 'account.connections' },
  { href: '/account/privacy', key: 'account.privacy' },
] as const;
const PASSWORD_FORM = `${SECURITY}/password`;
const TEACHING = { href: '/teach', key: 'account.teaching' } as const;

/** The picture, or without one the initials of the nickname (avatar-initials.ts). */
export const Avatar = ({ url, name, size }: { url: string; name: string; size: number }) => (
  <LazyImage
    src={url}
    alt=""
    width={size}
    height={size}
    className="avatar"
    fallback={
      <span className="avatar-fallback" aria-hidden="true">
        {avatarInitials(name)}
      </span>
    }
  />
);

/**
 * Tells the frame that the password changed: a pupil whose teacher gave the first password is asked to
 * choose one, on every page of the account centre, until the change is made.
 */
export const PasswordChanged = createContext<() => void>(() => {});

/**
 * The signed-in user's education memberships (what waits for a guardian, a pupil's name): undefined
 * while they load, null when they could not be read.
 */
export const EduStanding = createContext<EduMemberships | null | undefined>(undefined);

/** The section a path belongs to (the teacher area's screens, and each security row's form, are under their one section). */
const currentSection = (path: string) =>
  path.startsWith(`${TEACHING.href}/`) ? TEACHING.href : path.startsWith(`${SECURITY}/`) ? SECURITY : path;

export const AccountLayout = ({ title, children }: { title: string; children: ReactNode }) => {
  const { t } = useI18n();
  const { path } = useLocation();
  const session = useSession();
  // After a reload the session knows the tokens, not the user: read the profile (which tells the session).
  const profile = useLoad(() => (session.user ? Promise.resolve(session.user) : getProfile(client)));
  const user = session.user ?? profile.data;
  const action = useAction();
  const heading = useHeadingFocus();
  // Teachers and school admins (the education memberships say so) reach the teacher area from here.
  const edu = useLoad(loadMemberships);
  const nickname = user?.nickname || user?.fullname || '';
  // A pupil the school made is greeted by the name the teacher typed, a teacher by the name they gave
  // the school, not the drawn 用户NNNN, until they choose a nickname of their own; the drawn one waits
  // for the memberships before it is shown.
  const pupilName = isDefaultNickname(nickname) ? (edu.data?.pupil_name ?? edu.data?.teacher_name) : null;
  const stored = pupilName || nickname;
  const name = isDefaultNickname(nickname) && edu.status === 'loading' ? '' : shownNickname(stored, t);
  const sections = hasTeachingArea(edu.data) ? [...SECTIONS, TEACHING] : SECTIONS;
  const choosePassword = edu.data?.must_change_password === true;
  // Until the pupil chooses their own password the server answers nothing else (PASSWORD_CHANGE_REQUIRED):
  // every page of the account centre leads to the form.
  useEffect(() => {
    if (choosePassword && path !== PASSWORD_FORM) navigate(PASSWORD_FORM, { replace: true });
  }, [choosePassword, path]);
  return (
    <div className="account">
      <aside className="account-side">
        <div className="who">
          {/* The stored name: a drawn default's last digits are the avatar in every language. */}
          <Avatar url={user?.avatar_url ?? ''} name={stored} size={48} />
          <p>{name ? t('account.hello', { name }) : t('account.title')}</p>
        </div>
        {/* Until the pupil has chosen a password every section leads back to the form: none is offered. */}
        <nav aria-label={t('account.sections')} hidden={choosePassword}>
          <ul>
            {sections.map((section) => (
              <li key={section.href}>
                <Link href={section.href} aria-current={currentSection(path) === section.href ? 'page' : undefined}>
                  {t(section.key)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          className="button ghost"
          onClick={() =>
            action.run(() =>
              signOutAndLeave(() => {
                trackEvent('sign_out');
                setTrackedUser(undefined);
              }),
            )
          }
        >
          {t('account.signOut')}
        </button>
        <FormError message={action.error} onRetry={action.retry} />
      </aside>
      <section className="panel wide account-main" aria-labelledby="screen-title">
        <h1 id="screen-title" tabIndex={-1} ref={heading}>
          {title}
        </h1>
        <ConsentWaiting standing={edu.data} />
        {choosePassword ? (
          <p className="info-panel" role="status">
            {t('password.chooseOwn')}{' '}
            {path === PASSWORD_FORM ? null : <Link href={PASSWORD_FORM}>{t('password.chooseOwnLink')}</Link>}
          </p>
        ) : null}
        <PasswordChanged.Provider value={edu.reload}>
          <EduStanding.Provider value={edu.data ?? (edu.status === 'loading' ? undefined : null)}>
            {children}
          </EduStanding.Provider>
        </PasswordChanged.Provider>
      </section>
      {/* A teacher's or school admin's session ends after the server's idle time-out: a warning first. */}
      {edu.data?.idle_minutes ? <StaffIdleWarning minutes={edu.data.idle_minutes} /> : null}
    </div>
  );
};
