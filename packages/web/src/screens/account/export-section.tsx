/**
 * A copy of my data (or, in the guardian area, of a linked child's): asked for after a fresh proof
 * when the server asks for one; the page then shows that it is being made (and looks again every few
 * seconds), and once it is ready, a link that works once until the time it says (the same link goes to
 * the account's e-mail, when it has one).
 */
import { callRoute } from '@edupass/account/custom-calls';
import { type DataExport, dataExportTable } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useEffect } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import type { TextKey } from '../../i18n/locales/en.ts';
import { client } from '../../session/account.ts';
import { eduCall } from '../../session/edu.ts';
import { useLoadError } from '../../ui/load-error.ts';
import { useStepUp } from '../../ui/step-up.tsx';

/** How often the page looks again while a copy is being made. */
const LOOK_AGAIN_MS = 3_000;

/** Whose copy: the signed-in person's own, or a linked child's (the server checks the guardian). */
const exportsOf = (childId: number | undefined) =>
  childId === undefined
    ? {
        list: () => callRoute(client, dataExportTable.listExports),
        ask: (lang: string) => callRoute(client, dataExportTable.requestExport, { body: { lang } }),
      }
    : {
        list: () => eduCall(dataExportTable.listChildExports, { params: { id: childId } }),
        ask: (lang: string) => eduCall(dataExportTable.requestChildExport, { params: { id: childId }, body: { lang } }),
      };

/** The texts that differ when a guardian asks for a child's copy. */
const wordsFor = (childId: number | undefined) => {
  const child = childId !== undefined;
  return {
    title: (child ? 'dataExport.childTitle' : 'dataExport.title') as TextKey,
    explain: (child ? 'dataExport.childExplain' : 'dataExport.explain') as TextKey,
    ask: (child ? 'dataExport.childAsk' : 'dataExport.ask') as TextKey,
    download: (child ? 'dataExport.childDownload' : 'dataExport.download') as TextKey,
  };
};

const ExportRow = ({ item, download }: { item: DataExport; download: TextKey }) => {
  const { t, locale } = useI18n();
  const when = (ms: number) => new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <li>
      <span>{t('dataExport.askedAt', { time: when(item.requested_at) })}</span>{' '}
      <span className="muted">{t(`dataExport.state.${item.state}`)}</span>
      {item.download_url ? (
        <>
          <a className="button primary block" href={item.download_url} download>
            {t(download)}
          </a>
          <p className="hint">{t('dataExport.once', { time: when(item.link_expires_at ?? 0) })}</p>
        </>
      ) : null}
    </li>
  );
};

export const ExportSection = ({ childId }: { childId?: number } = {}) => {
  const { t, locale } = useI18n();
  const action = useAction();
  const stepUp = useStepUp(action);
  const calls = exportsOf(childId);
  const words = wordsFor(childId);
  // In the guardian area it is one part of a child's panel, under the child's name.
  const Heading = childId === undefined ? 'h2' : 'h3';
  const list = useLoad(calls.list, [childId]);
  const loadError = useLoadError(list);
  const items = list.data?.exports ?? [];
  const making = items.some((item) => item.state === 'queued');
  useEffect(() => {
    if (!making) return;
    const timer = setTimeout(list.reload, LOOK_AGAIN_MS);
    return () => clearTimeout(timer);
  }, [making, list]);
  const ask = () =>
    stepUp.run(async () => {
      await calls.ask(locale);
      list.reload();
      return t('dataExport.asked');
    });
  return (
    <section className="subsection" aria-labelledby={`data-export-title-${childId ?? 'me'}`}>
      <Heading id={`data-export-title-${childId ?? 'me'}`}>{t(words.title)}</Heading>
      <p>{t(words.explain)}</p>
      {stepUp.panel}
      <FormError {...loadError} />
      <FormError message={action.error} onRetry={action.retry} />
      <Notice message={action.notice} />
      {making ? null : (
        <button type="button" className="button primary block" aria-busy={action.busy} onClick={() => void ask()}>
          {t(words.ask)}
        </button>
      )}
      {items.length > 0 ? (
        <ul className="export-list" aria-live="polite">
          {items.map((item) => (
            <ExportRow key={item.id} item={item} download={words.download} />
          ))}
        </ul>
      ) : null}
    </section>
  );
};
