/** "I have read and agree to <Terms> and <Privacy>": one required box, links to each text. */
import { listAgreements } from '@edupass/account';
import type { Agreement } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { Fragment, useId, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { loadChunk } from '../router/chunks.ts';
import { client } from '../session/account.ts';
import { agreementTitle, legalPath, quotedTitle } from './agreement-names.ts';
import { useLoadError } from './load-error.ts';

/** The sheet and the text loader, loaded on the first click on an agreement (its own chunk). */
const SHEET_CHUNK = 13;
let sheetFailures: { attempt: number; error: unknown } | undefined;
const loadSheet = () =>
  loadChunk(SHEET_CHUNK, () => import('./agreement-text.tsx'), sheetFailures?.attempt, sheetFailures?.error).then(
    (module) => {
      sheetFailures = undefined;
      return module;
    },
    (error: unknown) => {
      // The next try fetches the chunk afresh (chunks.ts): the browser remembers a failed import.
      sheetFailures = { attempt: (sheetFailures?.attempt ?? 0) + 1, error };
      throw error;
    },
  );

/** The sheet once its chunk is in; a chunk that will not load is said, with a retry, beside the link. */
const AgreementSheet = ({ agreement, onClose }: { agreement: Agreement; onClose(): void }) => {
  const sheet = useLoad(loadSheet);
  const failure = useLoadError(sheet);
  if (sheet.data) return <sheet.data.default agreement={agreement} onClose={onClose} />;
  return <FormError {...failure} className="form-error sheet-error" />;
};

let cache: Promise<Agreement[]> | undefined;
/** The agreements in effect, asked once per page. */
export const currentAgreements = (): Promise<Agreement[]> => {
  cache ??= listAgreements(client).catch((error: unknown) => {
    cache = undefined;
    throw error;
  });
  return cache;
};

export interface CurrentAgreements {
  agreements: Agreement[];
  /** Why they could not be loaded, and a retry when the network or the server was to blame. */
  loadError: { message: string | null; onRetry: (() => void) | null };
}

/** The agreements in effect; a failed load is said (never an empty "I agree to" line) and can be tried again. */
export const useCurrentAgreements = (): CurrentAgreements => {
  const load = useLoad(currentAgreements);
  return { agreements: load.data ?? [], loadError: useLoadError(load) };
};

/**
 * A link to an agreement's text: opens the sheet over the page (a new tab or window with a modifier,
 * as links do), `/legal/<code>?version=N` otherwise.
 */
export const AgreementLink = ({ agreement, quoted }: { agreement: Agreement; quoted?: boolean }) => {
  const { locale } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <a
        href={legalPath(agreement)}
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {quoted ? quotedTitle(agreement, locale) : agreementTitle(agreement, locale)}
      </a>
      {open ? <AgreementSheet agreement={agreement} onClose={() => setOpen(false)} /> : null}
    </>
  );
};

/** An agreement in a list: its title, opening the text, and its version. */
export const AgreementItem = ({ agreement }: { agreement: Agreement }) => {
  const { t } = useI18n();
  return (
    <li>
      <AgreementLink agreement={agreement} />{' '}
      <span className="muted">{t('agree.version', { v: agreement.version })}</span>
    </li>
  );
};

export interface AgreementsCheckProps {
  agreements: readonly Agreement[];
  loadError?: CurrentAgreements['loadError'] | undefined;
  checked: boolean;
  onChecked(checked: boolean): void;
  /** Whether the form was submitted: an unticked box is an error from then on. */
  submitted: boolean;
}

/**
 * The current agreements and whether the visitor ticked them: what a sign-up form checks, and
 * `checkProps` for its AgreementsCheck (the error shows once `agree` is touched or the form submitted).
 */
export const useAgreed = (touched: { shown(name: string): boolean }) => {
  const { agreements, loadError } = useCurrentAgreements();
  const [agreed, setAgreed] = useState(false);
  const checkProps = {
    agreements,
    loadError,
    checked: agreed,
    onChecked: setAgreed,
    submitted: touched.shown('agree'),
  };
  return { agreements, agreed, checkProps };
};

export const AgreementsCheck = ({ agreements, loadError, checked, onChecked, submitted }: AgreementsCheckProps) => {
  const { t } = useI18n();
  const failed = loadError?.message ? `${t('agree.loadFailed')} ${loadError.message}` : null;
  const id = useId();
  const error = submitted && !checked ? t('agree.required') : null;
  return (
    <div className={`field agree${error ? ' invalid' : ''}`}>
      <div className="agree-row">
        <label htmlFor={id}>
          <input
            id={id}
            type="checkbox"
            checked={checked}
            onChange={(event) => onChecked(event.target.checked)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          {t('agree.prefix')}
        </label>{' '}
        <span>
          {agreements.map((agreement, index) => (
            <Fragment key={agreement.id}>
              {index > 0 ? ` ${t('agree.and')} ` : ''}
              <AgreementLink agreement={agreement} quoted />
            </Fragment>
          ))}
        </span>
      </div>
      {error ? (
        <p id={`${id}-error`} className="error-text">
          {error}
        </p>
      ) : null}
      <FormError message={failed} onRetry={loadError?.onRetry} />
    </div>
  );
};
