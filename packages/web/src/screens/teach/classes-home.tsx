/** The teacher area's start: the caller's schools (with their approval), classes, and opening a class. */
import type { EduMemberships } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useI18n } from '../../i18n/i18n.ts';
import { loadMemberships } from '../../session/edu.ts';
import { Link } from '../../ui/link.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { AccountLayout } from '../account/account-layout.tsx';
import { ClassFacts } from './class-facts.tsx';
import { FindSchool } from './find-school.tsx';
import { OpenClassForm } from './open-class-form.tsx';
import { teachPaths } from './teach-paths.ts';

type School = EduMemberships['schools'][number];

/** One line a school: its roles for the caller (a user may be teacher and admin of the same school). */
const schoolsOf = (memberships: EduMemberships) => {
  const byId = new Map<number, School[]>();
  for (const school of memberships.schools) byId.set(school.id, [...(byId.get(school.id) ?? []), school]);
  return [...byId.values()];
};

const SchoolLine = ({ roles }: { roles: School[] }) => {
  const { t } = useI18n();
  const first = roles[0] as School;
  const isAdmin = roles.some((r) => r.role === 'school_admin' && r.status === 'approved');
  return (
    <li className="teach-row">
      <strong>{first.name}</strong>
      <span className="muted">
        {roles
          .map(
            (r) =>
              `${t(r.role === 'school_admin' ? 'teach.roleAdmin' : 'teach.roleTeacher')}${r.status === 'pending' ? ` · ${t('teach.pending')}` : r.status === 'refused' ? ` · ${t('teach.requestRefused')}` : ''}`,
          )
          .join(' · ')}
      </span>
      {isAdmin ? (
        <Link className="teach-link" href={teachPaths.school(first.id)}>
          {t('teach.schoolOverview')}
        </Link>
      ) : null}
    </li>
  );
};

export const ClassesHome = () => {
  const { t } = useI18n();
  const memberships = useLoad(loadMemberships);
  const loadError = useLoadError(memberships);
  const data = memberships.data;
  const taught = (data?.classes ?? []).filter((c) => c.role !== 'pupil' && c.status === 'active');
  const canOpen = (data?.schools ?? []).filter((s) => s.status === 'approved');
  return (
    <AccountLayout title={t('teach.title')}>
      <FormError {...loadError} />
      {data ? (
        <>
          <section className="subsection" aria-labelledby="schools-title">
            <h2 id="schools-title">{t('teach.schools')}</h2>
            {data.schools.length === 0 ? <p className="muted">{t('teach.noSchools')}</p> : null}
            <ul className="teach-list">
              {schoolsOf(data).map((roles) => (
                <SchoolLine key={roles[0]?.id} roles={roles} />
              ))}
            </ul>
          </section>
          <section className="subsection" aria-labelledby="classes-title">
            <h2 id="classes-title">{t('teach.classes')}</h2>
            {taught.length === 0 ? <p className="muted">{t('teach.noClasses')}</p> : null}
            <ul className="teach-list">
              {taught.map((c) => (
                <li key={c.id} className="teach-row">
                  <Link className="teach-link" href={teachPaths.class(c.id)}>
                    {c.name}
                  </Link>
                  <ClassFacts grade={c.grade} year={c.school_year} archived={c.archived} />
                </li>
              ))}
            </ul>
          </section>
          {canOpen.length > 0 ? <OpenClassForm schools={canOpen} grades={data.class_grades} /> : null}
          <FindSchool mine={data.schools} onAsked={memberships.reload} />
        </>
      ) : null}
    </AccountLayout>
  );
};
