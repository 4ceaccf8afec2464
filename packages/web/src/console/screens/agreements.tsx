/** Agreements: every version of every agreement, one shown in full, and publishing a new version. */
import { type FormEvent, useState } from 'react';
import { type AgreementVersion, listAgreementVersions, publishAgreement } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { errorMessage, Failure, Loading, Notice } from '../ui/status.tsx';
import { useAsync } from '../ui/use-async.ts';

const Viewer = ({ agreement, close }: { agreement: AgreementVersion; close(): void }) => {
  const { t } = useConsoleText();
  return (
    <section className="console-card" aria-labelledby="agreement-viewing">
      <div className="console-card-head">
        <h2 id="agreement-viewing">
          {t('agreements.viewing', { title: agreement.title, version: agreement.version })}
        </h2>
        <button type="button" className="console-button console-button-quiet" onClick={close}>
          {t('agreements.close')}
        </button>
      </div>
      {agreement.url ? (
        <p>
          <a href={agreement.url} target="_blank" rel="noreferrer">
            {agreement.url}
          </a>
        </p>
      ) : null}
      {/* Shown as text: agreement content is never rendered as markup here. */}
      <pre className="console-agreement-text">{agreement.content}</pre>
    </section>
  );
};

const PublishForm = ({ codes, published }: { codes: string[]; published(a: AgreementVersion): void }) => {
  const { t } = useConsoleText();
  const [code, setCode] = useState('');
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [url, setUrl] = useState('');
  const [effective, setEffective] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const effectiveAt = effective ? new Date(effective).getTime() : undefined;
      const agreement = await publishAgreement({
        code: code.trim(),
        title: title.trim(),
        content,
        ...(url.trim() ? { url: url.trim() } : {}),
        ...(effectiveAt !== undefined && Number.isFinite(effectiveAt) ? { effective_at: effectiveAt } : {}),
      });
      setTitle('');
      setContent('');
      setUrl('');
      setEffective('');
      published(agreement);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="console-card" aria-labelledby="agreement-publish">
      <h2 id="agreement-publish">{t('agreements.publish')}</h2>
      <form className="console-form" onSubmit={submit}>
        <label htmlFor="agreement-code">{t('agreements.code')}</label>
        <input
          id="agreement-code"
          list="agreement-codes"
          required
          pattern="[a-z][a-z0-9_\-]{1,63}"
          aria-describedby="agreement-code-hint"
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <datalist id="agreement-codes">
          {codes.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <span id="agreement-code-hint" className="console-muted">
          {t('agreements.codeHint')}
        </span>
        <label htmlFor="agreement-title">{t('agreements.name')}</label>
        <input id="agreement-title" required maxLength={128} value={title} onChange={(e) => setTitle(e.target.value)} />
        <label htmlFor="agreement-content">{t('agreements.content')}</label>
        <textarea
          id="agreement-content"
          required
          rows={8}
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
        <label htmlFor="agreement-url">{t('agreements.url')}</label>
        <input id="agreement-url" maxLength={1024} value={url} onChange={(e) => setUrl(e.target.value)} />
        <label htmlFor="agreement-effective">{t('agreements.effectiveAt')}</label>
        <input
          id="agreement-effective"
          type="datetime-local"
          value={effective}
          onChange={(e) => setEffective(e.target.value)}
        />
        {error ? (
          <p className="console-alert" role="alert">
            {errorMessage(error)}
          </p>
        ) : null}
        <button type="submit" className="console-button" disabled={busy}>
          {t('agreements.submit')}
        </button>
      </form>
    </section>
  );
};

export const AgreementsScreen = () => {
  const i18n = useConsoleText();
  const { t } = i18n;
  const versions = useAsync(listAgreementVersions, []);
  const [viewing, setViewing] = useState<AgreementVersion>();
  const [notice, setNotice] = useState('');
  const rows = versions.data ?? [];
  return (
    <>
      <h1>{t('agreements.title')}</h1>
      <Notice text={notice} />
      {versions.status === 'failed' ? <Failure error={versions.error} retry={versions.reload} /> : null}
      {versions.status === 'loading' && !versions.data ? <Loading /> : null}
      {versions.data && rows.length === 0 ? <p>{t('agreements.none')}</p> : null}
      {rows.length > 0 ? (
        <section className="console-card">
          <div className="console-table-wrap">
            <table className="console-table">
              <caption className="console-visually-hidden">{t('agreements.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('agreements.code')}</th>
                  <th scope="col">{t('agreements.name')}</th>
                  <th scope="col">{t('agreements.version')}</th>
                  <th scope="col">{t('agreements.effective')}</th>
                  <th scope="col">{t('agreements.published')}</th>
                  <th scope="col">
                    <span className="console-visually-hidden">{t('agreements.view')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => (
                  <tr key={a.id}>
                    <td>{a.code}</td>
                    <th scope="row">{a.title}</th>
                    <td>v{a.version}</td>
                    <td>{i18n.time(a.effectiveAt)}</td>
                    <td>{i18n.time(a.createdAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="console-button console-button-quiet"
                        aria-label={`${t('agreements.view')} ${a.title} v${a.version}`}
                        onClick={() => setViewing(a)}
                      >
                        {t('agreements.view')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      {viewing ? <Viewer agreement={viewing} close={() => setViewing(undefined)} /> : null}
      <PublishForm
        codes={[...new Set(rows.map((a) => a.code))]}
        published={(a) => {
          setNotice(t('agreements.didPublish', { code: a.code, version: a.version }));
          versions.reload();
        }}
      />
    </>
  );
};
