/**
 * What a child waiting for a guardian's consent sees first on every page of the account centre (above
 * the page: account-layout.tsx), in plain words: what waits (a parent must agree), how to ask them (a
 * link the child makes and sends: it works once, for 24 hours; the parent opens it on their own phone)
 * and what happens if nobody agrees (the day the account is deleted: `deleted_without_consent_at` of
 * the memberships). A pupil still on the card's password reads what waits and why above the password
 * form, and makes the link once their own password is chosen (the server answers nothing else before).
 */
import { type EduMemberships, guardianTable } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';

const ConsentLink = () => {
  const { t } = useI18n();
  const action = useAction();
  const [url, setUrl] = useState<string | null>(null);
  const make = () =>
    action.run(async () => {
      const { link } = await eduCall(guardianTable.openConsentLink);
      setUrl(`${window.location.origin}/consent#${link}`);
    });
  return (
    <>
      {url ? (
        <>
          <label className="field">
            <span>{t('family.linkLabel')}</span>
            <input readOnly value={url} onFocus={(event) => event.target.select()} data-testid="consent-link" />
          </label>
          <p className="hint">{t('family.linkHint')}</p>
          <button
            type="button"
            className="button block"
            onClick={() =>
              void action.run(async () => {
                await navigator.clipboard.writeText(url);
                return t('family.copied');
              })
            }
          >
            {t('family.copy')}
          </button>
        </>
      ) : (
        <button type="button" className="button primary block" aria-busy={action.busy} onClick={() => void make()}>
          {t('family.makeLink')}
        </button>
      )}
      <FormError message={action.error} />
      <Notice message={action.notice} />
    </>
  );
};

export const ConsentWaiting = ({ standing }: { standing: EduMemberships | null | undefined }) => {
  const { t, locale } = useI18n();
  const until = standing?.deleted_without_consent_at;
  if (until === null || until === undefined) return null;
  const date = new Date(until).toLocaleDateString(locale, { dateStyle: 'long' });
  return (
    <section className="info-panel account-section" aria-labelledby="consent-waiting" data-testid="consent-waiting">
      <h2 id="consent-waiting">{t('family.childTitle')}</h2>
      <p>{t('family.childBody')}</p>
      {standing?.must_change_password ? null : (
        <>
          <p>{t('family.childHow')}</p>
          <ConsentLink />
        </>
      )}
      <p>{t('family.childIfNot', { date })}</p>
    </section>
  );
};
