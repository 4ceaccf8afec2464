/** What a class, pupil or school the teacher may not see shows: the server's 404, with the way back. */
import { useI18n } from '../../i18n/i18n.ts';
import { Link } from '../../ui/link.tsx';
import { teachPaths } from './teach-paths.ts';

export const isNotFound = (error: unknown) => (error as { status?: unknown } | undefined)?.status === 404;

export const TeachNotFound = ({ message }: { message?: string }) => {
  const { t } = useI18n();
  return (
    <div className="teach-not-found">
      <p>{message ?? t('teach.notFoundBody')}</p>
      <p>
        <Link className="teach-link" href={teachPaths.home}>
          {t('teach.backToClasses')}
        </Link>
      </p>
    </div>
  );
};
