/**
 * A class's grade, chosen from the server's grade list by its name (三年级, 初一, 高三; Grade 3,
 * Grade 7 …), grouped by school stage: never a number box, where a tap and a "3" after the "1"
 * already there made 13 (an adult class). 幼儿园 and 大学/成人 appear only where the operator allows
 * them (the server's `class_grades`).
 */
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import type { TextKey } from '../../i18n/locales/en.ts';

type Translate = (key: TextKey, params?: Record<string, string | number>) => string;

/** A class grade's name in the page's language: 幼儿园, 一年级…六年级, 初一…初三, 高一…高三, 大学/成人. */
export const classGradeName = (t: Translate, grade: number): string => {
  const key = (grade === 0 || grade === 13 ? `classGrade.${grade}` : `grade.${grade}`) as TextKey;
  const name = t(key);
  return name === key ? String(grade) : name;
};

const STAGES: { key: TextKey | null; grades: number[] }[] = [
  { key: null, grades: [0] },
  { key: 'gradeStage.primary', grades: [1, 2, 3, 4, 5, 6] },
  { key: 'gradeStage.junior', grades: [7, 8, 9] },
  { key: 'gradeStage.senior', grades: [10, 11, 12] },
  { key: null, grades: [13] },
];

export const GradeSelect = ({
  grades,
  value,
  onValue,
  error,
}: {
  grades: readonly number[];
  /** The chosen grade as a string; '' while none is chosen. */
  value: string;
  onValue(value: string): void;
  error?: string | null | undefined;
}) => {
  const { t } = useI18n();
  const id = useId();
  const option = (grade: number) => (
    <option key={grade} value={grade}>
      {classGradeName(t, grade)}
    </option>
  );
  const groups: ReactNode[] = STAGES.flatMap(({ key, grades: stage }) => {
    const offered = stage.filter((g) => grades.includes(g));
    if (offered.length === 0) return [];
    if (key === null) return offered.map(option);
    return [
      <optgroup key={key} label={t(key)}>
        {offered.map(option)}
      </optgroup>,
    ];
  });
  return (
    <div className={`field${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{t('teach.grade')}</label>
      <select
        id={id}
        value={value}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onValue(event.target.value)}
      >
        {value === '' ? (
          <option value="" disabled>
            {t('teach.gradeChoose')}
          </option>
        ) : null}
        {groups}
      </select>
      {error ? (
        <p id={`${id}-error`} className="error-text">
          {error}
        </p>
      ) : null}
    </div>
  );
};
