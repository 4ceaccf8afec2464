/**
 * Adding pupils: pasted names (one a line), or an .xlsx workbook or a CSV file as Excel or WPS saves
 * it (UTF-8 or GBK, read by the server), a preview of who will be created and which lines are left
 * out, then the creation (up to 100) and the sign-in details with their card sheet.
 */
import { eduTable, PUPIL_BATCH_MAX, type PupilCredentials } from '@edupass/protocol';
import { base64Of } from '@edupass/ui-kit/file-base64.ts';
import { FileChooser } from '@edupass/ui-kit/file-chooser.tsx';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { CredentialsTable } from './credentials-table.tsx';

type Preview = { names: string[]; skipped: { line: number; text: string; reason: string }[]; blank_lines: number[] };

/** The file's bytes in base64, as the preview route takes them. */
const REASONS = ['empty', 'too_long', 'duplicate', 'too_many'] as const;

export const AddPupils = ({ classId, onCreated }: { classId: number; onCreated(): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const namesId = useId();
  const fileId = useId();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  // A new input once the file's pupils are created: the same file chosen again is a change again.
  const [picker, setPicker] = useState(0);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [created, setCreated] = useState<PupilCredentials[] | null>(null);

  const showPreview = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() && !file) return action.setError(t('teach.namesMissing'));
    void action.run(async () => {
      const body = file ? { file_base64: await base64Of(file) } : { text };
      setPreview(await eduCall(eduTable.previewPupils, { params: { id: classId }, body }));
      setCreated(null);
    });
  };
  const create = () =>
    action.run(async () => {
      if (!preview) return;
      const answer = await eduCall(eduTable.createPupils, {
        params: { id: classId },
        body: { names: preview.names.slice(0, PUPIL_BATCH_MAX) },
      });
      setCreated(answer.pupils);
      setPreview(null);
      setText('');
      setFile(null);
      setPicker((n) => n + 1);
      onCreated();
    });
  const reason = (code: string) =>
    (REASONS as readonly string[]).includes(code) ? t(`teach.reason.${code as (typeof REASONS)[number]}`) : code;

  return (
    <section className="subsection" aria-labelledby="add-pupils-title">
      <h2 id="add-pupils-title">{t('teach.add')}</h2>
      <form onSubmit={showPreview} noValidate>
        <div className="field">
          <label htmlFor={namesId}>{t('teach.names')}</label>
          <textarea
            id={namesId}
            rows={6}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setPreview(null);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor={fileId}>{t('teach.file')}</label>
          {/* In the page's words, not the browser's "Choose File" (ui-kit file-chooser.tsx). */}
          <FileChooser
            key={picker}
            id={fileId}
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            file={file}
            onFile={(chosen) => {
              setFile(chosen);
              setPreview(null);
            }}
            chooseLabel={t('teach.chooseFile')}
            noFileLabel={t('teach.noFile')}
            buttonClassName="button secondary"
            nameClassName="muted"
          />
        </div>
        <FormError message={action.error} onRetry={action.retry} />
        <button type="submit" className="button secondary" aria-busy={action.busy}>
          {t('teach.preview')}
        </button>
      </form>
      {preview ? (
        <div className="preview" role="status">
          <p>{t('teach.previewCount', { count: preview.names.length })}</p>
          <ol className="preview-names">
            {preview.names.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ol>
          {preview.skipped.length > 0 ? (
            <>
              <h3>{t('teach.skipped')}</h3>
              <ul>
                {preview.skipped.map((s) => (
                  <li key={`${s.line}:${s.text}`}>
                    {t('teach.skippedLine', { line: s.line, text: s.text, reason: reason(s.reason) })}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {preview.blank_lines.length > 0 ? (
            <p>{t('teach.blankLines', { lines: preview.blank_lines.join(', ') })}</p>
          ) : null}
          {preview.names.length > 0 ? (
            <button type="button" className="button primary" aria-busy={action.busy} onClick={create}>
              {action.busy ? t('form.working') : t('teach.createPupils', { count: preview.names.length })}
            </button>
          ) : null}
        </div>
      ) : null}
      {created ? (
        <>
          <p role="status">{t('teach.created', { count: created.length })}</p>
          <CredentialsTable classId={classId} pupils={created} caption={t('teach.credentials')} />
        </>
      ) : null}
    </section>
  );
};
