/**
 * Printing login cards: the server makes the sheet (new badges, the pupils' earlier cards revoked) and
 * it opens in a tab of its own, from a local `blob:` address, ready for the browser's print.
 */
import { eduTable } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useEffect, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';

const sheetAddress = (html: string) => URL.createObjectURL(new Blob([html], { type: 'text/html;charset=utf-8' }));

export interface CardSheetProps {
  classId: number;
  /** The pupils to print (every pupil of the class when left out). */
  userIds?: number[];
  label: string;
  disabled?: boolean;
}

export const CardSheet = ({ classId, userIds, label, disabled = false }: CardSheetProps) => {
  const { t, locale } = useI18n();
  const action = useAction();
  const [sheet, setSheet] = useState<{ url: string; count: number } | null>(null);
  useEffect(() => () => (sheet ? URL.revokeObjectURL(sheet.url) : undefined), [sheet]);

  const make = () =>
    action.run(async () => {
      const made = await eduCall(eduTable.cardSheet, {
        params: { id: classId },
        body: { lang: locale, ...(userIds ? { user_ids: userIds } : {}) },
      });
      setSheet({ url: sheetAddress(made.html), count: made.count });
    });

  return (
    <div className="card-sheet">
      <button
        type="button"
        className="button secondary"
        aria-busy={action.busy}
        aria-disabled={disabled || undefined}
        onClick={() => !disabled && make()}
      >
        {action.busy ? t('form.working') : label}
      </button>
      <FormError message={action.error} onRetry={action.retry} />
      {sheet ? (
        <p role="status">
          <a className="teach-link" href={sheet.url} target="_blank" rel="noopener">
            {t('teach.openSheet', { count: sheet.count })}
          </a>
          <span className="muted"> {t('teach.sheetHint')}</span>
        </p>
      ) : null}
    </div>
  );
};
