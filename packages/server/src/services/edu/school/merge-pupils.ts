/**
 * One pupil, two accounts, made one by the school's admin (the accounts a roster and the school's own
 * sign-in made before the school's identifiers were one key, person-keys.ts). The admin sees the
 * school's pupils who share a name, or one school number (found by a sign-in), on several accounts,
 * chooses the one that stays, and merges: in one transaction the kept account takes the other's classes, guardians (and their waiting requests),
 * consent records (and a guardian's consent when it has none of its own), printed cards, the schools'
 * keys and roster links, the school's pupil row and a guardian's limits where it has none; the other
 * account's sessions end and it is frozen to be erased by the next sweep (signing in to it is refused;
 * sites hear `user.deletion_scheduled` with `deleted_by: merged` and `merged_into`).
 *
 * Refused with E_19 ACCOUNTS_NOT_MERGEABLE (MERGE_REFUSALS says why): the same account twice, an
 * account waiting to be deleted, a teacher's or a school admin's, a guardian's, an adult's, one that
 * belongs to another school as well, and — for the account that would end — one with a way in its owner
 * chose (a phone, an e-mail, WeChat or QQ, a passkey, an authenticator): keep that one instead. An
 * account that is not a pupil of the school is E_2, as if it did not exist. Names only suggest: nothing
 * is merged but the two accounts the admin names.
 */
import { MERGE_REFUSALS, type MergeRefusal, type PupilDuplicates } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { ApiError, fail } from '../../../errors.ts';
import { eraseApplicationGrants } from '../../../store/account/erasure.ts';
import { findUserById, lockUserRows, setErasure } from '../../../store/account/users.ts';
import {
  type MergeFacts,
  mergeFacts,
  moveAccountRows,
  pupilClassesOf,
  pupilsOfSchool,
  setConsentColumns,
} from '../../../store/edu/school/merge.ts';
import { numberPairsOf } from '../../../store/edu/school/person-keys.ts';
import { endAllSessions } from '../../account/users.ts';
import { inTransaction, recordEvent } from '../../webhooks/events.ts';
import { requireAccess } from '../access.ts';
import { logPupilReads } from '../access-log.ts';
import { eduAudit } from '../audit.ts';
import { classView } from './schools.ts';

/** Groups a list shows at most (a school of 3,000 pupils has a few dozen shared names). */
const GROUPS_SHOWN = 100;

const refused = (reason: MergeRefusal) => new ApiError('E_19', MERGE_REFUSALS[reason]);

/** Why the account cannot stay (`keep`) or end (`end`) in a merge in the school; undefined: it can. */
const refusalOf = (facts: MergeFacts, schoolId: number, as: 'keep' | 'end'): MergeRefusal | undefined => {
  const { user } = facts;
  if (user.erase_at !== null) return 'deleting';
  if (user.role === 'operator' || facts.staff > 0 || facts.teachesClasses > 0) return 'staff';
  if (facts.children > 0) return 'guardian';
  if (user.age_band === 'adult') return 'adult';
  if ([...facts.schools].some((id) => id !== schoolId)) return 'other_school';
  if (as === 'end' && ownSignIn(facts)) return 'own_sign_in';
  return undefined;
};

const ownSignIn = (facts: MergeFacts) => facts.user.phone !== null || facts.user.email !== null || facts.ownWays > 0;

/**
 * A name as people write it alike: NFKC (full-width letters, digits and spaces as half-width), no
 * spaces at all, one case, one middle dot (王 小明, 王小明 and ＷＡＮＧ Ｘｉａｏ　ｍｉｎｇ agree with their plain forms).
 */
export const nameKey = (name: string) =>
  name
    .normalize('NFKC')
    .replace(/\s+/gu, '')
    .replace(/[·・•‧･]/gu, '·')
    .toLowerCase();

type SchoolPupil = Awaited<ReturnType<typeof pupilsOfSchool>>[number];
const nameOf = (pupil: SchoolPupil) => (pupil.display_name ?? pupil.fullname ?? '').trim();

/**
 * What says the accounts of a group may be one pupil, strongest last: the same name, or the same name
 * written differently (spaces, full-width characters); and the same birth month on two or more of them.
 */
const reasonsOf = (pupils: SchoolPupil[]): PupilDuplicates['groups'][number]['reasons'] => {
  const names = new Set(pupils.map(nameOf));
  const months = pupils.map((p) => p.birth_year_month).filter((m): m is string => m !== null);
  return [
    names.size === 1 ? 'same_name' : 'name_written_alike',
    ...(new Set(months).size < months.length ? ['same_birth_month' as const] : []),
  ];
};

/** Groups of the school's pupils sharing a name as people write it (nameKey), two or more each. */
const nameGroups = (pupils: SchoolPupil[]) => {
  const byName = new Map<string, SchoolPupil[]>();
  for (const pupil of pupils) {
    const key = nameKey(nameOf(pupil));
    if (key === '') continue;
    byName.set(key, [...(byName.get(key) ?? []), pupil]);
  }
  return [...byName.values()]
    .filter((group) => group.length > 1)
    .map((group) => ({ pupils: group, reasons: reasonsOf(group) }));
};

/**
 * Adds the pairs one school number names (person-keys.ts `recordNumberPair`): to the name group that
 * holds both, or as a group of the two.
 */
const withNumberPairs = (
  groups: ReturnType<typeof nameGroups>,
  pupils: SchoolPupil[],
  pairs: (readonly [number, number])[],
) => {
  const byId = new Map(pupils.map((p) => [Number(p.id), p]));
  for (const [a, b] of pairs) {
    const one = byId.get(a);
    const other = byId.get(b);
    if (!one || !other) continue;
    const named = groups.find((g) => g.pupils.includes(one) && g.pupils.includes(other));
    if (named) {
      if (!named.reasons.includes('same_school_number')) named.reasons.push('same_school_number');
    } else groups.push({ pupils: [one, other], reasons: ['same_school_number'] });
  }
  return groups;
};

const strength = (reasons: PupilDuplicates['groups'][number]['reasons']) =>
  2 * Number(reasons.includes('same_school_number')) + Number(reasons.includes('same_birth_month'));

/**
 * The school's pupils who may be one person on two or more accounts: the same name as people write it
 * (nameKey), or one school number on two accounts, with what says so; a group with one school number
 * first, then one with a shared birth month. Only a list: nothing merges but the two accounts the admin names.
 */
export const pupilDuplicates = async (ctx: Context, callerId: number, schoolId: number): Promise<PupilDuplicates> => {
  await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'manage');
  const pupils = await pupilsOfSchool(ctx.db, schoolId);
  const shared = withNumberPairs(nameGroups(pupils), pupils, await numberPairsOf(ctx.db, schoolId))
    .sort((a, b) => strength(b.reasons) - strength(a.reasons))
    .slice(0, GROUPS_SHOWN);
  const ids = shared.flatMap(({ pupils }) => pupils.map((p) => Number(p.id)));
  const classes = await pupilClassesOf(ctx.db, ids);
  const groups: PupilDuplicates['groups'] = [];
  for (const { pupils, reasons } of shared) {
    const accounts = [];
    for (const p of pupils) {
      const facts = (await mergeFacts(ctx.db, Number(p.id))) ?? fail('E_2');
      accounts.push({
        user_id: Number(p.id),
        name: nameOf(p),
        username: p.username ?? '',
        classes: (classes.get(Number(p.id)) ?? []).map(classView),
        created_at: Number(p.created_at),
        refused_as_keep: refusalOf(facts, schoolId, 'keep') ?? null,
        refused_as_end: refusalOf(facts, schoolId, 'end') ?? null,
        own_sign_in: ownSignIn(facts),
      });
    }
    groups.push({ name: nameOf(pupils[0] as SchoolPupil), reasons, accounts });
  }
  await logPupilReads(ctx, callerId, ids, ['name', 'username', 'class'], 'pupil_duplicates');
  return { groups };
};

/** Merges `end` into `keep` (both pupils of the school), atomically; the kept and ended account ids. */
export const mergePupils = async (
  ctx: Context,
  callerId: number,
  schoolId: number,
  input: { keep: number; end: number },
) => {
  await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'manage');
  const { keep, end } = input;
  if (keep === end) throw refused('same_account');
  try {
    await inTransaction(ctx, async (tx) => {
      // Two merges of the same accounts at once (either way round) run one after the other.
      if (tx.store.dialect === 'postgres') await lockUserRows(tx.db, [keep, end]);
      const kept = (await mergeFacts(tx.db, keep)) ?? fail('E_2');
      const ended = (await mergeFacts(tx.db, end)) ?? fail('E_2');
      if (!kept.schools.has(schoolId) || !ended.schools.has(schoolId)) fail('E_2');
      const why = refusalOf(kept, schoolId, 'keep') ?? refusalOf(ended, schoolId, 'end');
      if (why) throw refused(why);
      await moveAccountRows(tx.db, end, keep);
      // A guardian's consent given on the ended account stands for the pupil on the kept one.
      if (ended.user.consent_state === 'granted' && kept.user.consent_state !== 'granted') {
        await setConsentColumns(tx.db, keep, { consent_state: 'granted', consent_pending_since: null }, tx.now());
      }
      const endedUser = (await findUserById(tx.db, end)) ?? fail('E_2');
      await endAllSessions(tx, endedUser, 'merged');
      await eraseApplicationGrants(tx.db, end);
      await setErasure(tx.db, end, { at: tx.now(), by: 'merged' });
      // Sites hear the ended account go, and into which account the pupil went.
      await recordEvent(tx, {
        type: 'user.deletion_scheduled',
        userId: end,
        product: endedUser.pid,
        data: { erase_at: tx.now(), deleted_by: 'merged', merged_into: keep },
      });
      await logPupilReads(tx, callerId, [keep, end], ['name', 'class', 'guardians', 'consent'], 'pupils_merged');
      await eduAudit(
        tx,
        callerId,
        'edu.pupils.merge',
        `user:${keep}`,
        `user:${end} merged into it, school:${schoolId}`,
      );
    });
  } finally {
    ctx.sessions.forgetUser(keep);
    ctx.sessions.forgetUser(end);
  }
  return { kept: keep, ended: end };
};
