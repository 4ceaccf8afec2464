/** "I have read and agree to <Terms> and <Privacy>": one required box, links to each text. */
import { listAgreements } from '@edupass/account';
import type { Agreement } from '@edupass/protocol';
import { Fragment, useEffect, useId, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';

let cache: Promise<Agreement[]> | undefined;
/** The agreements in effect, asked once per page. */
export const currentAgreements = (): Promise<Agreement[]> => {
  cache ??= listAgreements(client).catch((error: unknown) => {
    cache = undefined;
    throw error;
  });
  return cache;
};

export const useCurrentAgreements = (): Agreement[] => {
  const [agreements, setAgreements] = useState<Agreement[]>([]);
  useEffect(() => {
    let live = true;
    currentAgreements().then(
      (list) => live && setAgreements(list),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return agreements;
};

/** An agreement's title in the page's language: titles are stored as "中文 / English". */
const agreementTitle = (agreement: Agreement, locale: string): string => {
  const [zh, en] = agreement.title.split(' / ');
  return (locale === 'en' ? en : zh) ?? agreement.title;
};

/** An agreement in a list: its title, linking to the text, and its version. */
export const AgreementItem = ({ agreement }: { agreement: Agreement }) => {
  const { t, locale } = useI18n();
  return (
    <li>
      <a href={agreement.url} target="_blank" rel="noreferrer">
        {agreementTitle(agreement, locale)}
      </a>{' '}
      <span className="muted">{t('agree.version', { v: agreement.version })}</span>
    </li>
  );
};

export interface AgreementsCheckProps {
  agreements: readonly Agreement[];
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
  const agreements = useCurrentAgreements();
  const [agreed, setAgreed] = useState(false);
  const checkProps = { agreements, checked: agreed, onChecked: setAgreed, submitted: touched.shown('agree') };
  return { agreements, agreed, checkProps };
};

export const AgreementsCheck = ({ agreements, checked, onChecked, submitted }: AgreementsCheckProps) => {
  const { t, locale } = useI18n();
  const id = useId();
  const error = submitted && !checked ? t('agree.required') : null;
  return (
    <div className={`field agree${error ? ' invalid' : ''}`}>
      <div className="agree-row">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(event) => onChecked(event.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <label htmlFor={id}>{t('agree.prefix')}</label>{' '}
        <span>
          {agreements.map((agreement, index) => (
            <Fragment key={agreement.id}>
              {index > 0 ? ` ${t('agree.and')} ` : ''}
              <a href={agreement.url} target="_blank" rel="noreferrer">
                《{agreementTitle(agreement, locale)}》
              </a>
            </Fragment>
          ))}
        </span>
      </div>
      {error ? (
        <p id={`${id}-error`} className="error-text">
          {error}
        </p>
      ) : null}
    </div>
  );
};
