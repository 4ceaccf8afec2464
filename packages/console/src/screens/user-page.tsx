/**
 * One user: identities, agreements signed, recent sign-ins and sessions; block, unblock and end
 * every session, reset the second factor, delete the account (each but unblock asks first, in a dialog
 * naming the user by nickname and phone, else e-mail or username).
 */
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useEffect, useState } from 'react';
import { blockUser, deleteUser, getUser, revokeSessions, type UserDetail, unblockUser } from '../api/admin-api.ts';
import { resetSecondFactor } from '../api/second-factor.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { hrefOf, navigate } from '../router.ts';
import { ConsoleConfirm } from '../ui/confirm.tsx';
import { signInMethodName } from '../ui/sign-in-method.ts';
import { Loaded } from '../ui/status.tsx';
import { Card, DataTable } from '../ui/table.tsx';
import { deviceOf } from '../ui/user-agent.ts';
import { MinorAccess, minorRefusal } from './minor-access.tsx';

type Pending = 'block' | 'revoke' | 'reset' | 'delete' | undefined;
/** Each question's title, body and the action's own word on its button. */
const CONFIRM = {
  block: ['user.confirmBlock', 'user.confirmBlockBody', 'user.block'],
  revoke: ['user.confirmRevoke', 'user.confirmRevokeBody', 'user.revoke'],
  reset: ['user.confirmResetSecondFactor', 'user.confirmResetSecondFactorBody', 'user.resetSecondFactor'],
  delete: ['user.confirmDelete', 'user.confirmDeleteBody', 'user.delete'],
} as const;

const Identities = ({ detail }: { detail: UserDetail }) => {
  const { t } = useConsoleText();
  const ids = detail.identities;
  const rows: [string, string][] = [
    [t('user.phone'), ids.phone || t('user.notSet')],
    [t('user.email'), ids.email || t('user.notSet')],
    [t('user.username'), ids.username || t('user.notSet')],
    [t('user.password'), ids.has_password ? t('user.set') : t('user.notSet')],
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
    <Card id="user-agreements" title={t('user.agreements')}>
      <DataTable
        empty={t('user.noAgreements')}
        rows={detail.agreements}
        rowKey={(a) => a.id}
        columns={[
          {
            head: t('user.agreement'),
            rowHeader: true,
            cell: (a) => (
              <>
                {a.title} <span className="console-muted">({a.code})</span>
              </>
            ),
          },
          { head: t('user.version'), cell: (a) => `v${a.version}` },
          { head: t('user.signedAt'), cell: (a) => i18n.time(a.signed_at) },
        ]}
      />
    </Card>
  );
};

const Sessions = ({ detail }: { detail: UserDetail }) => {
  const i18n = useConsoleText();
  const { t } = i18n;
  return (
    <Card id="user-sessions" title={t('user.sessions')}>
      <DataTable
        wrap
        empty={t('user.noSessions')}
        rows={detail.sessions}
        rowKey={(s) => s.id}
        columns={[
          { head: t('user.time'), rowHeader: true, cell: (s) => i18n.time(s.created_at) },
          { head: t('user.method'), cell: (s) => signInMethodName(s.method, t) },
          { head: t('user.ip'), cell: (s) => s.ip },
          { head: t('user.device'), cellProps: (s) => ({ title: s.user_agent }), cell: (s) => deviceOf(s.user_agent) },
          {
            head: t('user.session'),
            cellProps: (s) => ({ className: s.live ? 'console-live' : 'console-muted' }),
            cell: (s) => (s.live ? t('user.live') : t('user.ended', { time: i18n.time(s.revoked_at) })),
          },
        ]}
      />
    </Card>
  );
};

export const UserScreen = ({ id }: { id: number }) => {
  const i18n = useConsoleText();
  const { t } = i18n;
  const [reason, setReason] = useState<string>();
  const detail = useLoad(() => getUser(id, reason), [id, reason]);
  /** Tries the record again with the reason (the same one again once an approval has come). */
  const openWith = (given: string) => (given === reason ? detail.reload() : setReason(given));
  // What the record needs stays asked while the next try loads (the form keeps its reason).
  const [minor, setMinor] = useState<'reason' | 'approval'>();
  const refusal = detail.status === 'failed' && detail.data === undefined ? minorRefusal(detail.error) : undefined;
  useEffect(() => {
    if (refusal) setMinor(refusal);
    if (detail.status === 'done') setMinor(undefined);
  }, [refusal, detail.status]);
  const [pending, setPending] = useState<Pending>();
  const action = useAction(i18n.errorText);

  const run = async (change: () => Promise<unknown>, done: string) => {
    const changed = await action.run(async () => {
      await change();
      return done;
    });
    if (changed) detail.reload();
  };

  const confirmed = async (what: Exclude<Pending, undefined>) => {
    setPending(undefined);
    if (what === 'delete') {
      // The user is gone: back to the list, where they no longer appear.
      if (await action.run(() => deleteUser(id))) navigate({ name: 'users', q: '' });
      return;
    }
    const changes = {
      block: [() => blockUser(id), 'user.didBlock'],
      reset: [() => resetSecondFactor(id), 'user.didResetSecondFactor'],
      revoke: [() => revokeSessions(id), 'user.didRevoke'],
    } as const;
    const [change, done] = changes[what];
    await run(change, t(done));
  };

  /** The user as the operator knows them: nickname and a sign-in name (phone first), else the id. */
  const nameOf = ({ user, identities }: UserDetail) => {
    const identity = identities.phone || identities.email || identities.username;
    if (user.nickname && identity) return t('user.nameWithIdentity', { nickname: user.nickname, identity });
    return user.nickname || identity || `#${user.id}`;
  };

  const nickname = detail.data?.user.nickname;
  return (
    <>
      <p>
        <a href={hrefOf({ name: 'users', q: '' })}>← {t('user.back')}</a>
      </p>
      <h1>
        {t('user.title', { id })}
        {nickname ? ` · ${nickname}` : ''}
      </h1>
      {minor ? <MinorAccess userId={id} needs={minor} given={reason} open={openWith} /> : null}
      <Loaded state={detail}>
        {(data) => (
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
                      ? t('user.blockedSince', { time: i18n.time(data.user.blocked_at) })
                      : t('user.active')}
                  </dd>
                </div>
                <div>
                  <dt>{t('user.role')}</dt>
                  <dd>{data.user.role}</dd>
                </div>
                <div>
                  <dt>{t('user.created')}</dt>
                  <dd>{i18n.time(data.user.created_at)}</dd>
                </div>
              </dl>
              {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons, not form fields */}
              <div className="console-actions" role="group" aria-label={t('user.actions')}>
                {data.user.blocked ? (
                  <button
                    type="button"
                    className="console-button"
                    disabled={action.busy}
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
                <button type="button" className="console-button" onClick={() => setPending('reset')}>
                  {t('user.resetSecondFactor')}
                </button>
                <button
                  type="button"
                  className="console-button console-button-danger"
                  onClick={() => setPending('delete')}
                >
                  {t('user.delete')}
                </button>
              </div>
              {pending ? (
                <ConsoleConfirm
                  title={t(CONFIRM[pending][0], { name: nameOf(data) })}
                  body={t(CONFIRM[pending][1])}
                  confirmLabel={t(CONFIRM[pending][2])}
                  onCancel={() => setPending(undefined)}
                  onConfirm={() => void confirmed(pending)}
                />
              ) : null}
              <Notice message={action.notice} />
              <FormError message={action.error} />
            </section>
            <Identities detail={data} />
            <Agreements detail={data} />
            <Sessions detail={data} />
          </>
        )}
      </Loaded>
    </>
  );
};
