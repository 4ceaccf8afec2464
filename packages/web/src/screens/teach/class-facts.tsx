/** A class's grade and school year, and whether it is archived; a class's name with both, where one is chosen. */

import { useI18n } from '../../i18n/i18n.ts';
import type { TextKey } from '../../i18n/locales/en.ts';
import { classGradeName } from './grade-select.tsx';

/**
 * A class as a list to choose from names it: its name, grade and school year ("三年级二班 · 三年级 ·
 * 2026-2027"), so two classes of one name in different years are told apart.
 */
export const classLabel = (
  t: (key: TextKey, params?: Record<string, string | number>) => string,
  c: { name: string; grade: number; school_year: string },
) => t('teach.classLabel', { name: c.name, grade: classGradeName(t, c.grade), year: c.school_year });

export const ClassFacts = ({ grade, year, archived }: { grade: number; year: string; archived: boolean }) => {
  const { t } = useI18n();
  return (
    <span className="muted">
      {t('teach.classFacts', { grade: classGradeName(t, grade), year })}
      {archived ? ` · ${t('teach.archived')}` : ''}
    </span>
  );
};
