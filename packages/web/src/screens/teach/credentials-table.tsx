/** Pupils' sign-in details as a creation or a reset answers them (shown once), with their card sheet. */
import type { PupilCredentials } from '@edupass/protocol';
import { useI18n } from '../../i18n/i18n.ts';
import { CardSheet } from './card-sheet.tsx';

export const CredentialsTable = ({
  classId,
  pupils,
  caption,
}: {
  classId: number;
  pupils: PupilCredentials[];
  caption: string;
}) => {
  const { t } = useI18n();
  return (
    <div className="credentials">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard (axe scrollable-region-focusable) */}
      <section className="table-scroll" aria-label={caption} tabIndex={0}>
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('teach.name')}</th>
              <th scope="col">{t('teach.username')}</th>
              <th scope="col">{t('teach.password')}</th>
            </tr>
          </thead>
          <tbody>
            {pupils.map((p) => (
              <tr key={p.user_id}>
                <td>{p.name}</td>
                <td className="mono">{p.username}</td>
                <td className="mono">{p.password}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <CardSheet
        classId={classId}
        userIds={pupils.map((p) => p.user_id)}
        label={t('teach.printThese', { count: pupils.length })}
      />
    </div>
  );
};
