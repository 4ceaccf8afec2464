/**
 * A staff password past the staff policy (expired, or below its rules): the server answers nothing
 * else (PASSWORD_EXPIRED) until it is changed, so the console shows only this form. The change keeps
 * this session (`changePasswordKeepingSession`), and the console opens once it is done.
 */
import { changePasswordKeepingSession } from '@edupass/account/sessions';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { consoleClient } from '../api/session.ts';
import { useConsoleText } from '../i18n/i18n.ts';

export const PasswordExpired = ({ onChanged }: { onChanged: () => void }) => {
  const { t, errorText } = useConsoleText();
  const [old, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, error, run } = useAction(errorText);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await changePasswordKeepingSession(consoleClient, {
        old_password: old,
        password,
        confirm_password: confirm,
        // Whoever knew the old password is signed out everywhere else.
        end_other_sessions: true,
      });
      onChanged();
    });
  };
  return (
    <main id="console-main" tabIndex={-1} className="console-sign-in">
      <h1>{t('expired.title')}</h1>
      <p>{t('expired.body')}</p>
      <form onSubmit={submit} className="console-form">
        <label htmlFor="console-old-password">{t('expired.old')}</label>
        <input
          id="console-old-password"
          type="password"
          autoComplete="current-password"
          required
          value={old}
          onChange={(e) => setOld(e.target.value)}
        />
        <label htmlFor="console-new-password">{t('expired.new')}</label>
        <input
          id="console-new-password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <label htmlFor="console-confirm-password">{t('expired.confirm')}</label>
        <input
          id="console-confirm-password"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <FormError message={error} />
        <button type="submit" className="console-button" disabled={busy}>
          {t('expired.submit')}
        </button>
      </form>
    </main>
  );
};
