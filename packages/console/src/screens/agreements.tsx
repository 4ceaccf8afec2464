/**
 * Agreements: every version of every agreement, one shown in full in each language it has, and
 * publishing a new version with a title and content per language (readers get theirs, else the other).
 */
import { AGREEMENT_LANGUAGES, type AgreementLanguage } from '@edupass/protocol';
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
      {agreement.texts.map((text) => (
        <section key={text.lang} lang={text.lang} aria-label={t(LANGUAGE_NAMES[text.lang as AgreementLanguage])}>
          <h3>
            {t(LANGUAGE_NAMES[text.lang as AgreementLanguage])} · {text.title}
          </h3>
          {/* Shown as text: agreement content is never rendered as markup here. */}
          <pre className="console-agreement-text">{text.content}</pre>
        </section>
      ))}
    </section>
  );
};

/** Each language's name in the console's words. */
const LANGUAGE_NAMES = { 'zh-CN': 'agreements.langZh', en: 'agreements.langEn' } as const;

type Texts = Record<AgreementLanguage, { title: string; content: string }>;
const NO_TEXTS: Texts = { 'zh-CN': { title: '', content: '' }, en: { title: '', content: '' } };

/** One language's title and content, in a group named for the language. */
const LanguageText = ({
  lang,
  text,
  onText,
}: {
  lang: AgreementLanguage;
  text: Texts[AgreementLanguage];
  onText(text: Texts[AgreementLanguage]): void;
}) => {
  const { t } = useConsoleText();
  return (
    <fieldset className="console-form console-language-text">
      <legend>{t(LANGUAGE_NAMES[lang])}</legend>
      <label htmlFor={`agreement-title-${lang}`}>{t('agreements.name')}</label>
      <input
        id={`agreement-title-${lang}`}
        lang={lang}
        maxLength={128}
        value={text.title}
        onChange={(e) => onText({ ...text, title: e.target.value })}
      />
      <label htmlFor={`agreement-content-${lang}`}>{t('agreements.content')}</label>
      <textarea
        id={`agreement-content-${lang}`}
        lang={lang}
        rows={8}
        value={text.content}
        onChange={(e) => onText({ ...text, content: e.target.value })}
      />
    </fieldset>
  );
};

const PublishForm = ({ codes, published }: { codes: string[]; published(a: AgreementVersion): void }) => {
  const { t, errorText } = useConsoleText();
  const [code, setCode] = useState('');
  const [texts, setTexts] = useState<Texts>(NO_TEXTS);
  const [url, setUrl] = useState('');
  const [effective, setEffective] = useState('');
  const { busy, error, run } = useAction(errorText);
  const given = (lang: AgreementLanguage) => {
    const { title, content } = texts[lang];
    return title.trim() || content.trim() ? { title: title.trim(), content } : undefined;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const effectiveAt = effective ? new Date(effective).getTime() : undefined;
    const [zh, en] = [given('zh-CN'), given('en')];
    void run(async () => {
      const agreement = await publishAgreement({
        code: code.trim(),
        ...(zh ? { title: zh.title, content: zh.content } : {}),
        ...(en ? { title_en: en.title, content_en: en.content } : {}),
        ...(url.trim() ? { url: url.trim() } : {}),
        ...(effectiveAt !== undefined && Number.isFinite(effectiveAt) ? { effective_at: effectiveAt } : {}),
      });
      setTexts(NO_TEXTS);
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
        <p className="console-muted">{t('agreements.languagesHint')}</p>
        {AGREEMENT_LANGUAGES.map((lang) => (
          <LanguageText
            key={lang}
            lang={lang}
            text={texts[lang]}
            onText={(text) => setTexts((all) => ({ ...all, [lang]: text }))}
          />
        ))}
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
