/** The teacher area (one route chunk): classes, a class, a pupil, a school admin's view of the school. */

import { useI18n } from '../../i18n/i18n.ts';
import { useLocation } from '../../router/history.ts';
import { AccountLayout } from '../account/account-layout.tsx';
import { ClassScreen } from './class-screen.tsx';
import { ClassesHome } from './classes-home.tsx';
import { PupilScreen } from './pupil-screen.tsx';
import { SchoolScreen } from './school-screen.tsx';
import { TeachNotFound } from './teach-not-found.tsx';
import { teachPlace } from './teach-paths.ts';
import './teach.css';

const Teach = () => {
  const { path } = useLocation();
  const { t } = useI18n();
  const place = teachPlace(path);
  switch (place.screen) {
    case 'home':
      return <ClassesHome />;
    case 'class':
      return <ClassScreen key={place.classId} classId={place.classId} />;
    case 'pupil':
      return <PupilScreen key={`${place.classId}/${place.userId}`} classId={place.classId} userId={place.userId} />;
    case 'school':
      return <SchoolScreen key={place.schoolId} schoolId={place.schoolId} />;
    default:
      return (
        <AccountLayout title={t('notFound.title')}>
          <TeachNotFound />
        </AccountLayout>
      );
  }
};

export default Teach;
