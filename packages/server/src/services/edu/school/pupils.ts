/**
 * Pupil accounts a teacher manages: bulk creation (up to 100 a call, under the daily quotas), resets
 * (new passwords, sessions and cards ended at once) and moves between classes of the school. Each is
 * one transaction with its webhook events and an audit row. Initial passwords are kept sealed, not
 * hashed (passwords/initial-passwords.ts): creating a hundred pupils costs no argon2id work.
 */

import { PUPIL_BATCH_MAX } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { ApiError, invalidRequest } from '../../../errors.ts';
import { findUserById, insertNamedUsers, lockUserRows } from '../../../store/account/users.ts';
import {
  findClass,
  lockedClassGrade,
  movePupilRows,
  pupilsInClass,
  putClassMembers,
} from '../../../store/edu/school/classes.ts';
import {
  insertPupilAccounts,
  revokeBadges,
  setPupilPassword,
  takenUsernames,
} from '../../../store/edu/school/pupils.ts';
import { findSchool } from '../../../store/edu/school/schools.ts';
import { endAllSessions } from '../../account/users.ts';
import { SEALED_INITIAL_PASSWORD, sealInitialPassword } from '../../passwords/initial-passwords.ts';
import { newUser, recordUserCreated } from '../../sign-in/sign-up.ts';
import { inTransaction, recordEvent } from '../../webhooks/events.ts';
import { requireAccess, requirePupilsAccess, schoolManaged } from '../access.ts';
import { logPupilReads } from '../access-log.ts';
import { eduAudit } from '../audit.ts';
import { ageColumns, bandOfGrade } from '../family/age.ts';
import { dropGuardianCodes } from '../family/guardian-links.ts';
import { schoolConsentStands } from '../family/school-agreements.ts';
import { drawInitialPassword, drawUsername } from './credentials.ts';
import { checkNames } from './names.ts';
import { takePupilBatch } from './quotas.ts';

export interface PupilCredentials {
  user_id: number;
  name: string;
  username: string;
  password: string;
}

/** A live, unarchived class the caller teaches, or E_2. */
export const classToTeach = async (ctx: Context, callerId: number, classId: number) => {
  await requireAccess(ctx, callerId, { kind: 'class', id: classId }, 'teach');
  const found = (await findClass(ctx.db, classId)) ?? Promise.reject(new ApiError('E_2'));
  return found;
};

/** An archived class is read-only: no new pupils, passwords, cards or moves into it (E_1). */
export const requireOpen = (found: { archived_at: number | null }) => {
  if (found.archived_at !== null) throw invalidRequest('The class is archived.');
};

/** `count` usernames free now for the school (a parallel creation taking one is caught at insert). */
export const freeUsernames = async (ctx: Context, schoolId: number, count: number): Promise<string[]> => {
  const chosen = new Set<string>();
  while (chosen.size < count) {
    const candidates = Array.from({ length: count - chosen.size }, () => drawUsername(schoolId));
    const taken = await takenUsernames(ctx.db, candidates);
    for (const name of candidates) if (!taken.has(name.toLowerCase())) chosen.add(name);
  }
  return [...chosen];
};

export const createPupils = async (
  ctx: Context,
  callerId: number,
  classId: number,
  rawNames: string[],
): Promise<PupilCredentials[]> => {
  const names = checkNames(rawNames);
  if (names.length > PUPIL_BATCH_MAX) throw invalidRequest(`At most ${PUPIL_BATCH_MAX} pupils a call.`);
  const found = await classToTeach(ctx, callerId, classId);
  requireOpen(found);
  const [school, teacher] = await Promise.all([findSchool(ctx.db, found.school_id), findUserById(ctx.db, callerId)]);
  if (!school || !teacher) throw new ApiError('E_2');
  await takePupilBatch(ctx, callerId, school);
  const usernames = await freeUsernames(ctx, school.id, names.length);
  const passwords = names.map(() => drawInitialPassword());
  const mustChange = ctx.config.eduPupilPasswordChange ? 1 : 0;
  const schoolConsent = await schoolConsentStands(ctx, school.id);
  return inTransaction(ctx, async (tx) => {
    // The grade as it is now, the class held until the commit: a grade change waits and then moves these pupils too.
    const grade = (await lockedClassGrade(tx.db, classId, tx.store.dialect === 'postgres')) ?? found.grade;
    const users = await insertNamedUsers(
      tx.db,
      names.map((name, i) => {
        const username = usernames[i] as string;
        return newUser(tx, {
          pid: teacher.pid,
          username,
          username_key: username.toLowerCase(),
          password_hash: SEALED_INITIAL_PASSWORD,
          fullname: name,
          // The class's band; under 14 the school's agreement, where one is in force, stands for the
          // guardians' consent (school-agreements.ts); without one the pupil waits for a guardian.
          ...ageColumns(bandOfGrade(grade), null, schoolConsent ? 'school' : 'guardian'),
        });
      }),
    );
    const created: PupilCredentials[] = [];
    for (const [i, user] of users.entries()) {
      // A parallel creation took the name between the draw and the insert: the batch is not half-made.
      if (!user) throw new ApiError('E_10', 'A username was taken meanwhile. Try again.');
      await recordUserCreated(tx, user, 'school');
      created.push({
        user_id: user.id,
        name: names[i] as string,
        username: user.username ?? '',
        password: passwords[i] as string,
      });
    }
    const userIds = created.map((p) => p.user_id);
    const now = tx.now();
    await insertPupilAccounts(
      tx.db,
      created.map((p) => ({
        user_id: p.user_id,
        school_id: school.id,
        created_by: callerId,
        display_name: p.name,
        initial_password_sealed: sealInitialPassword(ctx, p.user_id, p.password),
        must_change_password: mustChange,
        created_at: now,
      })),
    );
    await putClassMembers(
      tx.db,
      created.map((p) => ({ class_id: classId, user_id: p.user_id, role: 'pupil', status: 'active', created_at: now })),
    );
    await recordEvent(tx, {
      type: 'pupils.created',
      userId: callerId,
      product: teacher.pid,
      data: { school_id: school.id, class_id: classId, user_ids: userIds },
    });
    await logPupilReads(tx, callerId, userIds, ['name', 'username', 'initial_password'], 'pupils_created');
    await eduAudit(tx, callerId, 'edu.pupils.create', `class:${classId}`, `${created.length} pupils`);
    return created;
  });
};

/** Pupils of the class the caller may do `action` on, or E_2 for the first that is not. */
const requirePupils = async (
  ctx: Context,
  callerId: number,
  classId: number,
  userIds: number[],
  action: 'reset' | 'teach',
) => {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) throw invalidRequest('Name at least one pupil.');
  await requirePupilsAccess(ctx, callerId, classId, unique, action);
  return unique;
};

/**
 * New passwords for pupils of the class: their sessions end at once, and their old cards and every
 * guardian code open for them (a lost card's among them) stop working.
 */
export const resetPupils = async (ctx: Context, callerId: number, classId: number, userIds: number[]) => {
  const ids = await requirePupils(ctx, callerId, classId, userIds, 'reset');
  requireOpen((await findClass(ctx.db, classId)) ?? { archived_at: null });
  const users = await Promise.all(ids.map((id) => findUserById(ctx.db, id)));
  const passwords = ids.map(() => drawInitialPassword());
  try {
    return await inTransaction(ctx, async (tx) => {
      await holdSchoolAccounts(tx, classId, ids);
      const now = tx.now();
      const answer: PupilCredentials[] = [];
      for (const [i, user] of users.entries()) {
        if (!user) throw new ApiError('E_2');
        const password = passwords[i] as string;
        await setPupilPassword(tx.db, user.id, {
          password_hash: SEALED_INITIAL_PASSWORD,
          sealed: sealInitialPassword(ctx, user.id, password),
          mustChange: ctx.config.eduPupilPasswordChange,
          now,
        });
        await endAllSessions(tx, user, 'school_reset');
        await recordEvent(tx, { type: 'password.changed', userId: user.id, product: user.pid, data: { by: 'school' } });
        answer.push({ user_id: user.id, name: user.fullname, username: user.username ?? '', password });
      }
      await revokeBadges(tx.db, ids, now);
      await dropGuardianCodes(tx.db, ids);
      await logPupilReads(tx, callerId, ids, ['name', 'username', 'new_password'], 'pupils_reset');
      await eduAudit(tx, callerId, 'edu.pupils.reset', `class:${classId}`, `${ids.length} pupils`);
      return answer;
    });
  } finally {
    for (const id of ids) ctx.sessions.forgetUser(id);
  }
};

/** Moves pupils to another class of the same school the caller may teach; the old class loses them at once. */
export const movePupils = async (
  ctx: Context,
  callerId: number,
  classId: number,
  userIds: number[],
  toClassId: number,
) => {
  const from = await classToTeach(ctx, callerId, classId);
  const to = await classToTeach(ctx, callerId, toClassId);
  if (from.school_id !== to.school_id || from.id === to.id) throw invalidRequest('Pupils move within one school.');
  requireOpen(to);
  const ids = await requirePupils(ctx, callerId, classId, userIds, 'teach');
  const teacher = await findUserById(ctx.db, callerId);
  await inTransaction(ctx, async (tx) => {
    await movePupilRows(tx.db, classId, toClassId, ids, tx.now());
    await recordEvent(tx, {
      type: 'class.membership.changed',
      userId: callerId,
      product: teacher?.pid ?? '',
      data: { school_id: from.school_id, from_class_id: classId, to_class_id: toClassId, user_ids: ids },
    });
    await eduAudit(tx, callerId, 'edu.pupils.move', `class:${classId}`, `${ids.length} pupils to class:${toClassId}`);
  });
};

/**
 * In a reset's or a card sheet's transaction (`tx`): the pupils' accounts held (their rows locked on
 * PostgreSQL; SQLite runs one writer at a time) and checked again to be the school's own, E_2
 * otherwise. The access check ran before the transaction: a pupil who bound a phone meanwhile, or a
 * second print or reset of the same pupils, now waits for this one or sees its outcome, so a reset
 * never sets a password on an account the pupil has just taken, and two prints leave one live card.
 */
export const holdSchoolAccounts = async (tx: Context, classId: number, ids: number[]) => {
  if (ids.length === 0) return;
  if (tx.store.dialect === 'postgres') await lockUserRows(tx.db, ids);
  if ((await schoolManaged(tx.db, classId, ids)).size !== new Set(ids).size) throw new ApiError('E_2');
};

/**
 * The class's pupils among `userIds`, for the card sheet; when none are named, every pupil whose
 * account the class's school made and still manages (a card is a way into the school's accounts only:
 * a member who joined with an account of their own, or took theirs with a phone, gets none, and does
 * not stop the rest of the class's cards).
 */
export const pupilsForCards = async (ctx: Context, classId: number, userIds: number[] | undefined) => {
  const ids = await pupilsInClass(ctx.db, classId, userIds);
  if (userIds) {
    if (ids.length !== new Set(userIds).size) throw new ApiError('E_2');
    return ids;
  }
  const managed = await schoolManaged(ctx.db, classId, ids);
  return ids.filter((id) => managed.has(id));
};
