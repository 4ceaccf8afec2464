/**
 * The pupil's login cards: each card the school printed whose QR code still signs in (when it was
 * printed, for which class), and stopping one, which asks first and takes effect at once on the
 * server. Whether the cards end when the pupil chooses a password of their own is the school's
 * choice; when the school keeps them working, this says so.
 */

import { listOwnCards, type OwnCards, revokeOwnCard } from '@edupass/account/edu';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { Link } from '../../ui/link.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { SECURITY_PATH } from './security-rows.ts';

type Card = OwnCards['cards'][number];

export const CardsSection = () => {
  const { t, locale } = useI18n();
  const cards = useLoad(() => listOwnCards(client));
  const loadError = useLoadError(cards);
  const action = useAction();
  const confirm = useConfirm();
  const when = (ms: number) => new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const facts = (card: Card) =>
    card.class_name
      ? t('cards.facts', { when: when(card.printed_at), className: card.class_name })
      : t('cards.factsNoClass', { when: when(card.printed_at) });

  const stop = async (card: Card) => {
    const sure = await confirm.ask({
      title: t('cards.stopTitle'),
      body: t('cards.stopBody'),
      confirmLabel: t('cards.stop'),
    });
    if (!sure) return;
    await action.run(async () => {
      await revokeOwnCard(client, { id: card.id });
      cards.reload();
      return t('cards.stopped');
    });
  };

  const list = cards.data?.cards;
  return (
    <section className="subsection" aria-labelledby="cards-title">
      <h2 id="cards-title">{t('cards.title')}</h2>
      <p className="muted">{t('cards.intro')}</p>
      {cards.data?.cards_keep_working ? <p className="form-warning">{t('cards.schoolKeeps')}</p> : null}
      {action.error ? <FormError message={action.error} onRetry={action.retry} /> : <FormError {...loadError} />}
      <Notice message={action.notice} />
      {!list ? (
        <p className="muted">{t('app.loading')}</p>
      ) : list.length === 0 ? (
        <p>{t('cards.none')}</p>
      ) : (
        <ul className="devices">
          {list.map((card) => (
            <li key={card.id} className="device">
              <div className="device-facts">
                <strong>{t('cards.card')}</strong>
                <span className="muted">{facts(card)}</span>
              </div>
              <button type="button" className="button secondary" onClick={() => void stop(card)}>
                {t('cards.stop')}
                <span className="visually-hidden"> {facts(card)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {confirm.dialog}
    </section>
  );
};

/**
 * What choosing a password does to the pupil's login cards, said before the pupil chooses: nothing
 * when no card signs in to the account.
 */
export const CardsAfterPassword = () => {
  const { t } = useI18n();
  const cards = useLoad(() => listOwnCards(client));
  const data = cards.data;
  if (!data || data.cards.length === 0) return null;
  return (
    // Said plainly, not in an error's red: what the card does after the change is no fault of the child's.
    <p data-testid="cards-after-password">
      {data.cards_keep_working ? (
        <>
          {t('password.cardKeeps')} <Link href={`${SECURITY_PATH}/cards`}>{t('cards.title')}</Link>
        </>
      ) : (
        t('password.cardStops')
      )}
    </p>
  );
};
