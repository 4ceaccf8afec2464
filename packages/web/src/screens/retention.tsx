/**
 * The privacy notice's retention statement at /privacy/retention: each kind of record and how long it
 * is kept, as the server's running settings say (`GET …/accounts/privacy/retention`), in the page's
 * language. Linked from every agreement's text; shown by the legal screen's chunk.
 */
import { callRoute } from '@edupass/account/custom-calls';
import { type RetentionStatement, retentionTable } from '@edupass/protocol';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { Screen } from '../ui/screen.tsx';

// Sent as `optional`: with a session's token when there is one, without one (and without asking for one) when not.
const readStatement = (lang: string) =>
  callRoute(
    client,
    { ...retentionTable.retentionStatement, auth: 'optional' },
    { query: { lang } },
  ) as Promise<RetentionStatement>;

export const RetentionStatementScreen = () => {
  const { t, locale } = useI18n();
  const statement = useLoad(() => readStatement(locale), [locale]);
  const data = statement.data;
  return (
    <Screen title={t('retention.title')} wide>
      <p>{t('retention.intro')}</p>
      {statement.status === 'failed' ? <p role="alert">{t('retention.failed')}</p> : null}
      {data ? (
        <table className="retention-table">
          <caption className="visually-hidden">{t('retention.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('retention.record')}</th>
              <th scope="col">{t('retention.kept')}</th>
            </tr>
          </thead>
          <tbody>
            {data.records.map((row) => (
              <tr key={row.kind}>
                <th scope="row">{row.record}</th>
                <td>{row.kept}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : statement.status !== 'failed' ? (
        <p aria-busy="true">{t('app.loading')}</p>
      ) : null}
    </Screen>
  );
};
