/**
 * One linked child in the guardian area: the record (read through the server, which logs the read in
 * the child's access log), agreement records, linked guardians, signed-in devices with signing one
 * out, the time limits, and the ways on: withdraw agreement, delete the account, remove the link.
 * Every change asks first where it cannot be undone.
 */
import { type ChildRecord, guardianLinkTable, guardianTable, isDefaultNickname } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useI18n } from '../../i18n/i18n.ts';
import type { TextKey } from '../../i18n/locales/en.ts';
import { eduCall } from '../../session/edu.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { shownChildName, shownNickname } from '../../ui/nickname.ts';
import { relationKey } from '../../ui/relation-field.tsx';
import { useDeviceLabel } from '../account/devices-section.tsx';
import { ExportSection } from '../account/export-section.tsx';
import { ChildRecordReads } from '../account/record-reads.tsx';
import { MinorLimitsForm } from './minor-limits-form.tsx';

const Facts = ({ record }: { record: ChildRecord }) => {
  const { t } = useI18n();
  const { child } = record;
  const rows: [TextKey, string][] = [
    ['guardian.field.nickname', shownNickname(child.nickname, t)],
    ['guardian.field.fullname', child.fullname || (child.pupil_name ?? '')],
    ['guardian.field.username', child.username],
    ['guardian.field.born', child.birth_year_month],
    ['guardian.field.band', child.age_band ? t(`guardian.band.${child.age_band}`) : ''],
    ['guardian.field.agreement', child.consent_state ? t(`family.state.${child.consent_state}`) : ''],
  ];
  return (
    <dl className="child-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{t(label)}</dt>
          <dd>{value || t('guardian.unknown')}</dd>
        </div>
      ))}
    </dl>
  );
};

export const ChildPanel = ({ childId, onGone }: { childId: number; onGone: () => void }) => {
  const { t, locale } = useI18n();
  const record = useLoad(() => eduCall(guardianLinkTable.childRecord, { params: { id: childId } }), [childId]);
  const loadError = useLoadError(record);
  const action = useAction();
  const confirm = useConfirm();
  const label = useDeviceLabel();
  const when = (ms: number) => new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const data = record.data;
  if (!data) return <FormError {...loadError} />;
  const name = shownChildName(data.child, t) || data.child.fullname || `#${childId}`;
  const params = { params: { id: childId } };
  /** Asks, then runs the change and reloads (or leaves the panel when the child is no longer shown). */
  const change = (
    ask: { title: string; body: string; confirmLabel: string },
    work: () => Promise<unknown>,
    done: string,
    gone = false,
  ) =>
    action.run(async () => {
      if (!(await confirm.ask(ask))) return;
      await work();
      if (gone) onGone();
      else record.reload();
      return done;
    });
  /** A full-width button that asks first, its label also the dialog's confirm button. */
  const askingButton = (
    label: string,
    ask: { title: string; body: string },
    work: () => Promise<unknown>,
    done: string,
    gone = false,
  ) => (
    <p>
      <button
        type="button"
        className="button block"
        onClick={() => void change({ ...ask, confirmLabel: label }, work, done, gone)}
      >
        {label}
      </button>
    </p>
  );
  return (
    <section className="account-section" aria-labelledby="child-title" data-testid="child-panel">
      <h2 id="child-title">{name}</h2>
      <FormError message={action.error} />
      <Notice message={action.notice} />
      {data.child.consent_state === 'pending' ? (
        <div className="info-panel" data-testid="agree-now">
          <p>{t('guardian.agreeNowBody', { name })}</p>
          <button
            type="button"
            className="button primary block"
            aria-busy={action.busy}
            onClick={() =>
              void action.run(async () => {
                // The consent page, with a link of the guardian's own (the same page a child's link opens).
                const { link } = await eduCall(guardianTable.openChildConsentLink, params);
                window.location.assign(`/consent#${encodeURIComponent(link)}`);
              })
            }
          >
            {t('guardian.agreeNow')}
          </button>
        </div>
      ) : null}
      <h3>{t('guardian.detailsTitle')}</h3>
      <Facts record={data} />
      <h3>{t('guardian.limitsTitle')}</h3>
      <MinorLimitsForm record={data} onSaved={record.reload} />
      <h3>{t('guardian.devicesTitle')}</h3>
      {data.devices.length === 0 ? <p className="muted">{t('guardian.noDevices')}</p> : null}
      <ul className="devices">
        {data.devices.map((device) => (
          <li key={device.id} className="device">
            <div className="device-facts">
              <strong>{label(device)}</strong>
              <span className="muted">{t('guardian.lastActive', { date: when(device.last_active_at) })}</span>
            </div>
            <button
              type="button"
              className="button"
              onClick={() =>
                void change(
                  {
                    title: t('guardian.signOutAsk', { name }),
                    body: t('guardian.signOutBody'),
                    confirmLabel: t('guardian.signOut'),
                  },
                  () => eduCall(guardianLinkTable.endChildDevice, { params: { id: childId, key: device.id } }),
                  t('guardian.signedOut'),
                )
              }
            >
              {t('guardian.signOut')}
            </button>
          </li>
        ))}
      </ul>
      <h3>{t('guardian.consentTitle')}</h3>
      {data.consents.length === 0 ? <p className="muted">{t('guardian.noConsents')}</p> : null}
      <ul className="consent-records">
        {data.consents.map((c) => (
          <li key={`${c.at}-${c.decision}`}>
            {t('guardian.consentRow', {
              decision: t(`guardian.decision.${c.decision as 'granted' | 'refused' | 'withdrawn'}`),
              date: when(c.at),
              n: c.text_version,
            })}
          </li>
        ))}
      </ul>
      <h3>{t('guardian.guardiansTitle')}</h3>
      <ul className="linked-guardians">
        {data.guardians.map((g) => (
          <li key={g.id}>
            {isDefaultNickname(g.name) || g.name === ''
              ? t(relationKey(g.relation))
              : `${shownNickname(g.name, t)} · ${t(relationKey(g.relation))}`}
          </li>
        ))}
      </ul>
      <ExportSection childId={childId} />
      <ChildRecordReads childId={childId} name={name} />
      <h3>{t('guardian.moreTitle')}</h3>
      {data.child.consent_state === 'granted' || data.child.consent_state === 'school'
        ? askingButton(
            t('family.withdraw'),
            { title: t('family.withdrawAskTitle'), body: t('family.withdrawAskBody', { name }) },
            () => eduCall(guardianTable.withdrawConsent, params),
            t('guardian.saved'),
          )
        : null}
      {data.child.guardian_deletion_at === null ? (
        askingButton(
          t('guardian.delete'),
          { title: t('guardian.deleteAsk', { name }), body: t('guardian.deleteBody') },
          () => eduCall(guardianLinkTable.deleteChildAccount, params),
          t('guardian.deleted'),
        )
      ) : (
        <>
          <p>{t('guardian.deletionWaits', { date: when(data.child.guardian_deletion_at) })}</p>
          {askingButton(
            t('guardian.keep'),
            { title: t('guardian.keepAsk', { name }), body: t('guardian.keepBody') },
            () => eduCall(guardianLinkTable.keepChildAccount, params),
            t('guardian.kept'),
          )}
        </>
      )}
      {askingButton(
        t('guardian.unlink'),
        { title: t('guardian.unlinkAsk', { name }), body: t('guardian.unlinkBody') },
        () => eduCall(guardianLinkTable.unlinkChild, params),
        t('guardian.saved'),
        true,
      )}
      {confirm.dialog}
    </section>
  );
};
