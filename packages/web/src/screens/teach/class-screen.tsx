/** A class: its pupils (with resets, moves and cards), adding pupils, join code and requests, settings. */
import { eduTable } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall, loadMemberships } from '../../session/edu.ts';
import { useLoadError } from '../../ui/load-error.ts';
import { AccountLayout } from '../account/account-layout.tsx';
import { AddPupils } from './add-pupils.tsx';
import { BackLink } from './back-link.tsx';
import { ClassFacts } from './class-facts.tsx';
import { ClassSettings } from './class-settings.tsx';
import { JoinSection } from './join-section.tsx';
import { PupilList } from './pupil-list.tsx';
import { isNotFound, TeachNotFound } from './teach-not-found.tsx';
import { teachPaths } from './teach-paths.ts';

const loadClass = async (classId: number) => {
  const [detail, memberships] = await Promise.all([
    eduCall(eduTable.getClass, { params: { id: classId } }),
    loadMemberships(),
  ]);
  const moveTargets = memberships.classes.filter(
    (c) =>
      c.id !== classId &&
      c.school_id === detail.class.school_id &&
      c.role !== 'pupil' &&
      c.status === 'active' &&
      !c.archived,
  );
  // The grade is its head teacher's or a school admin's to change (the server refuses anyone else).
  const mayChangeGrade =
    memberships.classes.some((c) => c.id === classId && c.role === 'head_teacher' && c.status === 'active') ||
    memberships.schools.some(
      (s) => s.id === detail.class.school_id && s.role === 'school_admin' && s.status === 'approved',
    );
  return { ...detail, moveTargets, mayChangeGrade, grades: memberships.class_grades };
};

export const ClassScreen = ({ classId }: { classId: number }) => {
  const { t } = useI18n();
  const load = useLoad(() => loadClass(classId), [classId]);
  const loadError = useLoadError(load);
  const data = load.data;
  if (load.status === 'failed' && isNotFound(load.error)) {
    return (
      <AccountLayout title={t('teach.classNotFound')}>
        <TeachNotFound />
      </AccountLayout>
    );
  }
  const pupils = data?.members.filter((m) => m.role === 'pupil' && m.status === 'active') ?? [];
  const requests = data?.members.filter((m) => m.role === 'pupil' && m.status === 'pending') ?? [];
  return (
    <AccountLayout title={data ? data.class.name : t('teach.classTitle')}>
      <BackLink href={teachPaths.home} label={t('teach.backToClasses')} />
      <FormError {...loadError} />
      {data ? (
        <>
          <p>
            <ClassFacts grade={data.class.grade} year={data.class.school_year} archived={data.class.archived} />
          </p>
          <PupilList
            classId={classId}
            pupils={pupils}
            moveTargets={data.moveTargets}
            archived={data.class.archived}
            onChanged={load.reload}
          />
          {data.class.archived ? null : <AddPupils classId={classId} onCreated={load.reload} />}
          {/* An archived class takes nobody new: the server refuses its join codes. */}
          {data.class.archived ? null : <JoinSection classId={classId} requests={requests} onChanged={load.reload} />}
          <ClassSettings
            found={data.class}
            onChanged={load.reload}
            grades={data.grades}
            mayChangeGrade={data.mayChangeGrade}
          />
        </>
      ) : null}
    </AccountLayout>
  );
};
