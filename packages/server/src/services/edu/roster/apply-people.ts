/**
 * The people steps of confirming a roster: pupil accounts made a batch per school at a time, teachers'
 * own accounts made approved teachers of their school, then names changed and people's links restored
 * or removed.
 */
import { ApiError } from '../../../errors.ts';
import { insertNamedUsers } from '../../../store/account/users.ts';
import { chunks, insertLinks, renamePupilRows, setLinksRemoved } from '../../../store/edu/roster/roster.ts';
import { insertPersonKeys } from '../../../store/edu/school/person-keys.ts';
import { insertPupilAccounts } from '../../../store/edu/school/pupils.ts';
import { putSchoolMember } from '../../../store/edu/school/schools.ts';
import { endpointsFor } from '../../../store/webhooks/endpoints.ts';
import { SEALED_INITIAL_PASSWORD, sealInitialPassword } from '../../passwords/initial-passwords.ts';
import { newUser, recordUserCreated } from '../../sign-in/sign-up.ts';
import { recordEvent, subscribes } from '../../webhooks/events.ts';
import { ageColumns, bandOfGrade } from '../family/age.ts';
import { schoolConsentStands } from '../family/school-agreements.ts';
import { drawInitialPassword } from '../school/credentials.ts';
import { schoolPersonKey } from '../school/person-keys.ts';
import { freeUsernames } from '../school/pupils.ts';
import type { Run } from './apply.ts';
import type { Plan } from './plan.ts';

type NewPupil = Plan['newPupils'][number];

/** How every pupil of this run is made. */
interface PupilTerms {
  /** 1 when pupils must change their initial password (EDU_PUPIL_PASSWORD_CHANGE). */
  mustChange: number;
  /** Whether a webhook endpoint listens for `user.created`. */
  announce: boolean;
}

/** New pupils in batches of 400, each batch a statement per school; a `pupils.created` event per school. */
export const createPupils = async (run: Run) => {
  const { tx, db, pid, plan } = run;
  const terms: PupilTerms = {
    mustChange: tx.config.eduPupilPasswordChange ? 1 : 0,
    announce: (await endpointsFor(db, pid)).some((e) => subscribes(e.events, 'user.created')),
  };
  const createdBySchool = new Map<number, number[]>();
  for (const batch of chunks(plan.newPupils, 400)) {
    const bySchool = new Map<number, typeof batch>();
    for (const p of batch) {
      const schoolId = await run.schoolIdOf(p.orgRef);
      bySchool.set(schoolId, [...(bySchool.get(schoolId) ?? []), p]);
    }
    for (const [schoolId, pupils] of bySchool) {
      const userIds = await createPupilsOfSchool(run, terms, schoolId, pupils);
      createdBySchool.set(schoolId, [...(createdBySchool.get(schoolId) ?? []), ...userIds]);
      run.step(pupils.length);
    }
  }
  for (const [schoolId, userIds] of createdBySchool) {
    await recordEvent(tx, {
      type: 'pupils.created',
      userId: run.operatorId,
      product: pid,
      data: { school_id: schoolId, user_ids: userIds },
    });
  }
};

/** One school's pupils of a batch: accounts, pupil rows and links, in a statement each; their ids. */
const createPupilsOfSchool = async (run: Run, terms: PupilTerms, schoolId: number, pupils: NewPupil[]) => {
  const { tx, db, pid, now } = run;
  const usernames = await freeUsernames(tx, schoolId, pupils.length);
  const consent = (await schoolConsentStands(tx, schoolId)) ? 'school' : 'guardian';
  const users = await insertNamedUsers(
    db,
    pupils.map((p, i) => {
      const username = usernames[i] as string;
      return newUser(tx, {
        pid,
        username,
        username_key: username.toLowerCase(),
        password_hash: SEALED_INITIAL_PASSWORD,
        fullname: p.name,
        ...ageColumns(bandOfGrade(p.grade), null, consent),
      });
    }),
  );
  const rows = [];
  const links = [];
  for (const [i, user] of users.entries()) {
    const pupil = pupils[i];
    if (!user || !pupil) throw new ApiError('E_10', 'A username was taken meanwhile. Try again.');
    if (terms.announce) await recordUserCreated(tx, user, 'school_roster');
    run.userOf.set(pupil.ref, user.id);
    rows.push({
      user_id: user.id,
      school_id: schoolId,
      created_by: run.operatorId,
      display_name: pupil.name,
      initial_password_sealed: sealInitialPassword(tx, user.id, drawInitialPassword()),
      must_change_password: terms.mustChange,
      created_at: now,
    });
    links.push(run.link('user', pupil.ref, { school: schoolId, user: user.id }));
  }
  await insertPupilAccounts(db, rows);
  await insertLinks(db, links);
  return rows.map((r) => r.user_id);
};

/** Teachers: their own accounts, now approved teachers of the school. */
export const linkTeachers = async (run: Run) => {
  const { db, now, plan } = run;
  const links = [];
  for (const t of plan.linkTeachers) {
    const schoolId = await run.schoolIdOf(t.orgRef);
    await putSchoolMember(db, {
      school_id: schoolId,
      user_id: t.userId,
      role: 'teacher',
      status: 'approved',
      created_at: now,
    });
    run.userOf.set(t.ref, t.userId);
    links.push(run.link('user', t.ref, { school: schoolId, user: t.userId }));
  }
  await insertLinks(db, links);
};

/**
 * People the school keyed before the roster named them: their accounts linked to the roster (and
 * teachers made approved teachers of the school), never a second account made.
 */
export const linkKeyedPeople = async (run: Run) => {
  const { db, now, plan } = run;
  for (const p of plan.linkPeople) {
    if (p.role === 'teacher') {
      await putSchoolMember(db, {
        school_id: p.schoolId,
        user_id: p.userId,
        role: 'teacher',
        status: 'approved',
        created_at: now,
      });
    }
    run.userOf.set(p.ref, p.userId);
  }
  await insertLinks(
    db,
    plan.linkPeople.map((p) => run.link('user', p.ref, { school: p.schoolId, user: p.userId })),
  );
};

/** The school's keys of the people made or linked now, or imported before keys were one per school. */
export const keyPeople = async (run: Run) => {
  const rows = [];
  for (const k of run.plan.keys) {
    const schoolId = typeof k.school === 'number' ? k.school : await run.schoolIdOf(k.school);
    const userId = k.userId ?? run.userOf.get(k.ref);
    if (userId === undefined) continue;
    rows.push({
      school_id: schoolId,
      key_hash: schoolPersonKey(run.tx.keys.identifiers, schoolId, k.idHash),
      user_id: userId,
      source: 'roster',
      created_at: run.now,
    });
  }
  await insertPersonKeys(run.db, rows);
};

/** Pupils' names changed; people's links restored or removed. */
export const applyPeopleChanges = async ({ db, now, plan }: Run) => {
  await renamePupilRows(db, plan.renameUsers, now);
  await setLinksRemoved(
    db,
    'user',
    plan.restoreUsers.map((r) => r.ref),
    null,
  );
  await setLinksRemoved(
    db,
    'user',
    plan.removeUsers.map((r) => r.ref),
    now,
  );
};
