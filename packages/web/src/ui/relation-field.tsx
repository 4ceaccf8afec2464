/** "You are the child's …": the relation a guardian gives when consenting or linking (GUARDIAN_RELATIONS). */
import { GUARDIAN_RELATIONS, type GuardianRelation } from '@edupass/protocol';
import { useId } from 'react';
import { useI18n } from '../i18n/i18n.ts';

/** A relation as said of someone ("mother", "guardian"); an unknown one is "guardian". */
export const relationKey = (relation: string) =>
  `guardian.relation.${(GUARDIAN_RELATIONS as readonly string[]).includes(relation) ? (relation as GuardianRelation) : 'other'}` as const;

export const RelationField = ({ value, onChange }: { value: string; onChange: (relation: string) => void }) => {
  const { t } = useI18n();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{t('guardianConsent.relation')}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('guardianConsent.relationChoose')}</option>
        {GUARDIAN_RELATIONS.map((r) => (
          <option key={r} value={r}>
            {t(`guardianConsent.relation.${r}`)}
          </option>
        ))}
      </select>
    </div>
  );
};
