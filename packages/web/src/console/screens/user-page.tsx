/**
 * One user: identities, agreements signed, recent sign-ins and sessions; block, unblock and end
 * every session (each asks for confirmation first).
 */
import { useState } from 'react';
import { blockUser, getUser, revokeSessions, type UserDetail, unblockUser } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { hrefOf } from '../router.ts';
import { errorMessage, Failure, Loading, Notice } from '../ui/status.tsx';
import { useAsync } from '../ui/use-async.ts';
import { deviceOf } from '../ui/user-agent.ts';

type Pending = 'block' | 'revoke' | undefined;

const Identities = ({ detail }: { detail: UserDetail }) => {
  const { t } = useConsoleText();
  const ids = detail.identities;
  const rows: [string, string][] = [
    [t('user.phone'), ids.phone || t('user.notSet')],
    [t('user.email'), ids.email || t('user.notSet')],
    [t('user.username'), ids.username || t('user.notSet')],
    [t('user.password'), ids.hasPassword ? t('user.set') : t('user.notSet')],
    [t('user.wechat'), ids.wechat ?? t('user.notSet')],
    [t('user.qq'), ids.qq ?? t('user.notSet')],
  ];
  return (
    <section className="console-card" aria-labelledby="user-identities">
      <h2 id="user-identities">{t('user.identities')}</h2>
      <dl className="console-facts">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
};

const Agreements = ({ detail }: { detail: UserDetail }) => {
  const i18n = useConsoleText();
  const { t } = i18n;
  return (
    <section className="console-card" aria-labelledby="user-agreements">
      <h2 id="user-agreements">{t('user.agreements')}</h2>
      {detail.agreements.length === 0 ? (
        <p className="console-muted">{t('user.noAgreements')}</p>
      ) : (
        <table className="console-table">
          <thead>
            <tr>
              <th scope="col">{t('user.agreement')}</th>
              <th scope="col">{t('user.version')}</th>
              <th scope="col">{t('user.signedAt')}</th>
            </tr>
          </thead>
          <tbody>
            {detail.agreements.map((a) => (
              <tr key={a.id}>
                <th scope="row">
                  {a.title} <span className="console-muted">({a.code})</span>
                </th>
                <td>v{a.version}</td>
                <td>{i18n.time(a.signedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
};

const Sessions = ({ detail }: { detail: UserDetail }) => {
  const i18n = useConsoleText();
  const { t } = i18n;
  return (
    <section className="console-card" aria-labelledby="user-sessions">
      <h2 id="user-sessions">{t('user.sessions')}</h2>
      {detail.sessions.length === 0 ? (
        <p className="console-muted">{t('user.noSessions')}</p>
      ) : (
        <div className="console-table-wrap">
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{t('user.time')}</th>
                <th scope="col">{t('user.method')}</th>
                <th scope="col">{t('user.ip')}</th>
                <th scope="col">{t('user.device')}</th>
                <th scope="col">{t('user.session')}</th>
              </tr>
            </thead>
            <tbody>
              {detail.sessions.map((s) => (
                <tr key={s.id}>
                  <th scope="row">{i18n.time(s.createdAt)}</th>
                  <td>{s.method}</td>
                  <td>{s.ip}</td>
                  <td title={s.userAgent}>{deviceOf(s.userAgent)}</td>
                  <td className={s.live ? 'console-live' : 'console-muted'}>
                    {s.live ? t('user.live') : t('user.ended', { time: i18n.time(s.revokedAt) })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
};

export const UserScreen = ({ id }: { id: number }) => {
  const i18n = useConsoleText();
  const { t } = i18n;
  const detail = useAsync(() => getUser(id), [id]);
  const [pending, setPending] = useState<Pending>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<unknown>();

  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setActionError(undefined);
    setNotice('');
    try {
      await action();
      setNotice(done);
      detail.reload();
    } catch (error) {
      setActionError(error);
    } finally {
      setBusy(false);
      setPending(undefined);
    }
  };

  const data = detail.data;
  return (
    <>
      <p>
        <a href={hrefOf({ name: 'users', q: '' })}>← {t('user.back')}</a>
      </p>
      <h1>
        {t('user.title', { id })}
        {data?.user.nickname ? ` · ${data.user.nickname}` : ''}
      </h1>
      {detail.status === 'failed' ? <Failure error={detail.error} retry={detail.reload} /> : null}
      {!data ? (
        detail.status === 'loading' ? (
          <Loading />
        ) : null
      ) : (
        <>
          <section className="console-card" aria-labelledby="user-summary">
            <h2 id="user-summary" className="console-visually-hidden">
              {t('user.status')}
            </h2>
            <dl className="console-facts">
              <div>
                <dt>{t('user.status')}</dt>
                <dd className={data.user.blocked ? 'console-danger' : 'console-live'}>
                  {data.user.blocked
                    ? t('user.blockedSince', { time: i18n.time(data.user.blockedAt) })
                    : t('user.active')}
                </dd>
              </div>
              <div>
                <dt>{t('user.role')}</dt>
                <dd>{data.user.role}</dd>
              </div>
              <div>
                <dt>{t('user.created')}</dt>
                <dd>{i18n.time(data.user.createdAt)}</dd>
              </div>
            </dl>
            {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons, not form fields */}
            <div className="console-actions" role="group" aria-label={t('user.actions')}>
              {pending ? (
                <>
                  <span>{pending === 'block' ? t('user.confirmBlock') : t('user.confirmRevoke')}</span>
                  <button
                    type="button"
                    className="console-button console-button-danger"
                    disabled={busy}
                    onClick={() =>
                      pending === 'block'
                        ? run(() => blockUser(id), t('user.didBlock'))
                        : run(() => revokeSessions(id), t('user.didRevoke'))
                    }
                  >
                    {t('user.confirm')}
                  </button>
                  <button
                    type="button"
                    className="console-button console-button-quiet"
                    onClick={() => setPending(undefined)}
                  >
                    {t('user.cancel')}
                  </button>
                </>
              ) : (
                <>
                  {data.user.blocked ? (
                    <button
                      type="button"
                      className="console-button"
                      disabled={busy}
                      onClick={() => run(() => unblockUser(id), t('user.didUnblock'))}
                    >
                      {t('user.unblock')}
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="console-button console-button-danger"
                      onClick={() => setPending('block')}
                    >
                      {t('user.block')}
                    </button>
                  )}
                  <button type="button" className="console-button" onClick={() => setPending('revoke')}>
                    {t('user.revoke')}
                  </button>
                </>
              )}
            </div>
            <Notice text={notice} />
            {actionError ? (
              <p className="console-alert" role="alert">
                {errorMessage(actionError)}
              </p>
            ) : null}
          </section>
          <Identities detail={data} />
          <Agreements detail={data} />
          <Sessions detail={data} />
        </>
      )}
    </>
  );
};
