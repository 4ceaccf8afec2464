/**
 * The account centre's family part (a child waiting for a guardian's consent sees that first, above
 * the profile: consent-waiting.tsx). A child under 18 makes a guardian link code and
 * sees who is linked; an adult sees their children and the way to the guardian area (/guardian), where
 * agreement is withdrawn, limits set and devices signed out.
 */
import { guardianLinkTable, guardianTable } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { Link } from '../../ui/link.tsx';
import { shownChildName, shownNickname } from '../../ui/nickname.ts';
import { relationKey } from '../../ui/relation-field.tsx';

/**
 * A child's part: who is linked (each with the relation they gave and the day they were added: the
 * child sees every guardian added, as the notice told them) and a code for a parent (works once, 7 days).
 */
const ChildGuardians = () => {
  const { t, locale } = useI18n();
  const action = useAction();
  const guardians = useLoad(() => eduCall(guardianLinkTable.ownGuardians));
  const [code, setCode] = useState<string | null>(null);
  const list = guardians.data?.guardians ?? [];
  const day = (ms: number) => new Date(ms).toLocaleDateString(locale, { dateStyle: 'long' });
  return (
    <section className="account-section" aria-labelledby="family-code">
      {list.length > 0 ? (
        <>
          <h2 id="family-guardians">{t('family.guardiansTitle')}</h2>
          <ul className="family-guardians" data-testid="linked-guardians" aria-labelledby="family-guardians">
            {list.map((g) => (
              <li key={g.id}>
                {t('family.guardianItem', {
                  name: shownNickname(g.name, t) || `#${g.id}`,
                  relation: t(relationKey(g.relation)),
                  date: day(g.linked_at),
                })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2 id="family-code">{t('family.codeTitle')}</h2>
      <p>{t('family.codeBody')}</p>
      {code ? (
        <>
          <p className="field">
            <span>{t('family.codeLabel')}</span>
            <output className="big-code" data-testid="guardian-link-code">
              {code}
            </output>
          </p>
          <p className="hint">{t('family.codeHint')}</p>
        </>
      ) : (
        <button
          type="button"
          className="button block"
          aria-busy={action.busy}
          onClick={() => void action.run(async () => setCode((await eduCall(guardianLinkTable.openGuardianCode)).code))}
        >
          {t('family.makeCode')}
        </button>
      )}
      <FormError message={action.error} />
    </section>
  );
};

const MINOR_BANDS = new Set(['under_8', '8_13', '14_15', '16_17']);

export const FamilySection = () => {
  const { t } = useI18n();
  const own = useLoad(() => eduCall(guardianTable.ownConsent));
  const children = useLoad(() => eduCall(guardianTable.guardianChildren));
  const list = children.data?.children ?? [];
  if (!own.data) return null;
  const minor = MINOR_BANDS.has(own.data.age_band ?? '');
  return (
    <>
      {minor ? <ChildGuardians /> : null}
      {!minor || list.length > 0 ? (
        <section className="account-section" aria-labelledby="family-guardian">
          <h2 id="family-guardian">{t(list.length > 0 ? 'family.guardianTitle' : 'family.toGuardianArea')}</h2>
          {list.length > 0 ? (
            <ul className="family-children">
              {list.map((child) => (
                <li key={child.id}>
                  <strong>{shownChildName(child, t) || `#${child.id}`}</strong>{' '}
                  <span className="muted">{t(`family.state.${child.consent_state ?? 'none'}`)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p>{t('family.guardianAreaBody')}</p>
          )}
          <p>
            <Link className="button block" href="/guardian">
              {t('family.toGuardianArea')}
            </Link>
          </p>
        </section>
      ) : null}
    </>
  );
};
