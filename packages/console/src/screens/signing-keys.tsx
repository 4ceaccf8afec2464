/**
 * The keys that sign access tokens: where each stands, and rotation (the next key is published at
 * once and signs after the publication delay; "now" makes it sign at once, for a suspected leak, and
 * asks first, naming the key it replaces).
 * The screen's calls are here too: it is the only one that makes them.
 */
import { adminRoutes } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useState } from 'react';
import { adminCall } from '../api/admin-call.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { ConsoleConfirm } from '../ui/confirm.tsx';
import { Loaded } from '../ui/status.tsx';
import { Card, DataTable } from '../ui/table.tsx';

const getSigningKeys = () => adminCall(adminRoutes.listSigningKeys);

const rotate = (now: boolean) => adminCall(adminRoutes.rotateSigningKey, { body: { now } });

const when = (ms: number | null) => (ms === null ? '—' : new Date(ms).toLocaleString());

export const SigningKeysScreen = () => {
  const { t, errorText } = useConsoleText();
  const keys = useLoad(getSigningKeys);
  const { busy, error, notice, run } = useAction(errorText);
  const [now, setNow] = useState(false);
  const [asking, setAsking] = useState(false);
  const signingKid = keys.data?.find((key) => key.state === 'signing')?.kid ?? '—';
  const submit = async () => {
    if (
      await run(async () => {
        await rotate(now);
        return t('keys.didRotate');
      })
    )
      keys.reload();
  };
  return (
    <>
      <h1>{t('keys.title')}</h1>
      <p className="console-lead">{t('keys.explain')}</p>
      <Notice message={notice} />
      <FormError message={error} />
      <Loaded state={keys}>
        {(rows) => (
          <Card id="signing-keys" title={t('keys.list')}>
            <DataTable
              caption={t('keys.list')}
              rows={rows}
              rowKey={(key) => key.kid}
              wrap={true}
              columns={[
                { head: t('keys.kid'), cell: (key) => <code>{key.kid}</code>, rowHeader: true },
                { head: t('keys.state'), cell: (key) => t(`keys.state.${key.state}`) },
                { head: t('keys.alg'), cell: (key) => key.alg },
                { head: t('keys.signsFrom'), cell: (key) => when(key.signs_from) },
                { head: t('keys.publishedUntil'), cell: (key) => when(key.published_until) },
              ]}
            />
          </Card>
        )}
      </Loaded>
      <form
        className="console-filters"
        onSubmit={(event) => {
          event.preventDefault();
          // Signing with a new key at once can break applications that have not fetched it yet.
          if (now) setAsking(true);
          else void submit();
        }}
      >
        <label>
          <input type="checkbox" checked={now} onChange={(event) => setNow(event.target.checked)} /> {t('keys.now')}
        </label>
        <button type="submit" className="console-button" disabled={busy}>
          {t('keys.rotate')}
        </button>
      </form>
      {asking ? (
        <ConsoleConfirm
          title={t('keys.confirmNow', { kid: signingKid })}
          body={t('keys.confirmNowBody', { kid: signingKid })}
          confirmLabel={t('keys.rotateNow')}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            void submit();
          }}
        />
      ) : null}
    </>
  );
};
