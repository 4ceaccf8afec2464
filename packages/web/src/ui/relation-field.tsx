/** "You are the child's …": the relation a guardian gives when consenting or linking (GUARDIAN_RELATIONS). */
import { GUARDIAN_RELATIONS, type GuardianRelation, isDefaultNickname } from '@edupass/protocol';
import { useId } from 'react';
import { type I18n, useI18n } from '../i18n/i18n.ts';
import { shownNickname } from './nickname.ts';

/** A relation as said of someone ("mother", "guardian"); an unknown one is "guardian". */
export const relationKey = (relation: string) =>
  `guardian.relation.${(GUARDIAN_RELATIONS as readonly string[]).includes(relation) ? (relation as GuardianRelation) : 'other'}` as const;

/**
 * A guardian as the family sees them: the nickname they chose, else what they are to the child (妈妈)
 * rather than the drawn 用户NNNNNNNN nobody knows them by.
 */
export const shownGuardianName = (name: string, relation: string, t: I18n['t']): string =>
  name === '' || isDefaultNickname(name) ? t(relationKey(relation)) : shownNickname(name, t);

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
