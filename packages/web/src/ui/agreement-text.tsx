/**
 * An agreement's text as the operator wrote it, for the version the user is asked to accept: plain
 * text in paragraphs (blank lines) and lines, never markup. Shown in a sheet from the consent box and
 * the agreements gate, and on its own page (/legal/<code>?version=N).
 */
import { readAgreement } from '@edupass/account/agreements';
import { type Agreement, RETENTION_PAGE_PATH } from '@edupass/protocol';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useEffect, useRef } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { agreementTitle } from './agreement-names.ts';
import { Link } from './link.tsx';

const readText = (code: string, version: string | null, lang: string) =>
  readAgreement(client, { code, lang, ...(version ? { version: Number(version) } : {}) });

export const AgreementBody = ({ content }: { content: string }) => (
  <div className="agreement-text">
    {content
      .split(/\n\s*\n/)
      .filter((paragraph) => paragraph.trim() !== '')
      .map((paragraph, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of a fixed text, in order.
        <p key={index}>
          {paragraph.split('\n').map((line, at) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed paragraph, in order.
            <span key={at}>
              {at > 0 ? <br /> : null}
              {line}
            </span>
          ))}
        </p>
      ))}
  </div>
);

/** Loads and shows the text of `code` at `version` (the one in effect when null). */
export const AgreementTextView = ({ code, version }: { code: string; version: string | null }) => {
  const { t, locale } = useI18n();
  const text = useLoad(() => readText(code, version, locale), [code, version, locale]);
  if (text.status === 'failed') return <p role="alert">{t('agree.notFound')}</p>;
  const data = text.data;
  if (!data) return <p aria-busy="true">{t('app.loading')}</p>;
  // A version without a text in the page's language is shown in the one it has, and says so.
  const other = data.lang !== undefined && data.lang !== locale;
  return (
    <article aria-label={data.title} lang={data.lang}>
      <p className="muted">{t('agree.version', { v: data.version })}</p>
      {other ? <p className="muted">{t('agree.otherLanguage')}</p> : null}
      <AgreementBody content={data.content} />
      <p>
        <Link className="line-link" href={RETENTION_PAGE_PATH}>
          {t('agree.retention')}
        </Link>
      </p>
    </article>
  );
};

/** The sheet over the form: the text, and a button back to the form. */
const AgreementSheet = ({ agreement, onClose }: { agreement: Agreement; onClose(): void }) => {
  const { t, locale } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="agreement-sheet" aria-labelledby="agreement-sheet-title" onClose={onClose}>
      <h2 id="agreement-sheet-title">{agreementTitle(agreement, locale)}</h2>
      <AgreementTextView code={agreement.code} version={String(agreement.version)} />
      <button type="button" className="button primary" onClick={() => dialog.current?.close()}>
        {t('agree.close')}
      </button>
    </dialog>
  );
};

/** The sheet is this module's default export: the consent box loads it on the first click. */
export default AgreementSheet;
