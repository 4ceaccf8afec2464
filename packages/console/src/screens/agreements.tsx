/** Agreements: every version of every agreement, one shown in full, and publishing a new version. */
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useState } from 'react';
import { type AgreementVersion, listAgreementVersions, publishAgreement } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { Loaded } from '../ui/status.tsx';
import { SuggestInput } from '../ui/suggest-input.tsx';
import { DataTable } from '../ui/table.tsx';

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
  const { t, errorText } = useConsoleText();
  const [code, setCode] = useState('');
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [url, setUrl] = useState('');
  const [effective, setEffective] = useState('');
  const { busy, error, run } = useAction(errorText);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const effectiveAt = effective ? new Date(effective).getTime() : undefined;
    void run(async () => {
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
    });
  };
  return (
    <section className="console-card" aria-labelledby="agreement-publish">
      <h2 id="agreement-publish">{t('agreements.publish')}</h2>
      <form className="console-form" onSubmit={submit}>
        <label htmlFor="agreement-code">{t('agreements.code')}</label>
        <SuggestInput
          id="agreement-code"
          required
          pattern="[a-z][a-z0-9_\-]{1,63}"
          aria-describedby="agreement-code-hint"
          value={code}
          onValue={setCode}
          suggestions={codes}
        />
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
        <FormError message={error} />
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
  const versions = useLoad(listAgreementVersions);
  const [viewing, setViewing] = useState<AgreementVersion>();
  const [notice, setNotice] = useState('');
  return (
    <>
      <h1>{t('agreements.title')}</h1>
      <Notice message={notice} />
      <Loaded state={versions}>
        {(rows) =>
          rows.length === 0 ? (
            <p>{t('agreements.none')}</p>
          ) : (
            <section className="console-card">
              <DataTable
                wrap
                caption={t('agreements.title')}
                rows={rows}
                rowKey={(a) => a.id}
                columns={[
                  { head: t('agreements.code'), cell: (a) => a.code },
                  { head: t('agreements.name'), rowHeader: true, cell: (a) => a.title },
                  { head: t('agreements.version'), cell: (a) => `v${a.version}` },
                  { head: t('agreements.effective'), cell: (a) => i18n.time(a.effective_at) },
                  { head: t('agreements.published'), cell: (a) => i18n.time(a.created_at) },
                  {
                    head: <span className="console-visually-hidden">{t('agreements.view')}</span>,
                    cell: (a) => (
                      <button
                        type="button"
                        className="console-button console-button-quiet"
                        aria-label={`${t('agreements.view')} ${a.title} v${a.version}`}
                        onClick={() => setViewing(a)}
                      >
                        {t('agreements.view')}
                      </button>
                    ),
                  },
                ]}
              />
            </section>
          )
        }
      </Loaded>
      {viewing ? <Viewer agreement={viewing} close={() => setViewing(undefined)} /> : null}
      <PublishForm
        codes={[...new Set((versions.data ?? []).map((a) => a.code))]}
        published={(a) => {
          setNotice(t('agreements.didPublish', { code: a.code, version: a.version }));
          versions.reload();
        }}
      />
    </>
  );
};
