/** A class's grade and school year, and whether it is archived. */
import { useI18n } from '../../i18n/i18n.ts';
import { classGradeName } from './grade-select.tsx';

export const ClassFacts = ({ grade, year, archived }: { grade: number; year: string; archived: boolean }) => {
  const { t } = useI18n();
  return (
    <span className="muted">
      {t('teach.classFacts', { grade: classGradeName(t, grade), year })}
      {archived ? ` · ${t('teach.archived')}` : ''}
    </span>
  );
};
