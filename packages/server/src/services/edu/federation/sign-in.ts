/**
 * Signing in with a school's own system: the upstream identity (already proven by its connector)
 * becomes an EduPass account — the one it is linked to, an account that asked to link it after its
 * own sign-in, or a new one (just in time) — lands in the connector's school by the mapping, and
 * signs in. Only an HMAC of the upstream subject is stored (keyed with the keyring's `identifiers` key, so a copy of
 * the database alone cannot test student numbers against it).
 */
import type { Context } from '../../../context.ts';
import { fail } from '../../../errors.ts';
import { findUserById, insertUser } from '../../../store/account/users.ts';
import { insertSchoolSignIn, takePlatformSignIns, takeSchoolSignIn } from '../../../store/edu/federation/connectors.ts';
import { classesOfSchool, putClassMembers } from '../../../store/edu/school/classes.ts';
import { insertPersonKeys, keyedUsers, recordNumberPair, rekeyPerson } from '../../../store/edu/school/person-keys.ts';
import { putSchoolMember } from '../../../store/edu/school/schools.ts';
import type { User } from '../../../store/schema.ts';
import { sessionKey } from '../../../store/sessions/sessions.ts';
import { hmac } from '../../security/hashing.ts';
import { accessTokenClaims, defaultPid } from '../../sessions/access-tokens.ts';
import { endSessionByKey } from '../../sessions/tokens.ts';
import { type SignedIn, type SignInRequest, signIn } from '../../sign-in/session-answer.ts';
import { newUser, recordUserCreated } from '../../sign-in/sign-up.ts';
import { inTransaction } from '../../webhooks/events.ts';
import { ageColumns, bandOfGrade } from '../family/age.ts';
import { schoolConsentStands } from '../family/school-agreements.ts';
import { currentClassesNamed } from '../school/class-names.ts';
import { schoolKeyOf } from '../school/person-keys.ts';
import type { Connector } from './connectors.ts';
import { type MappedIdentity, mapIdentity, type UpstreamIdentity } from './identity-mapping.ts';
import { type SignOutThere, sealSignOut } from './sign-out.ts';

/** The HMAC of an upstream ticket, for single logout. */
const ticketHash = (ctx: Context, connectorId: number, ticket: string) =>
  hmac(ctx.keys.codes, `school-ticket:${connectorId}:${ticket}`);

/** The HMAC of what a platform's logout token names (its session id, or the person there). */
const upstreamHash = (ctx: Context, connectorId: number, kind: 'sid' | 'sub', value: string | undefined) =>
  value === undefined ? undefined : hmac(ctx.keys.codes, `school-${kind}:${connectorId}:${value}`);

/**
 * The account the school keys the person the school's system names `subject` to (person-keys.ts: the
 * roster's 学号 and this sign-in's user are one key), with the school's key. An identity a connector
 * linked before the keys were one per school is found by its older hash, which the school's key then
 * replaces. When the school's key names one account and the older hash another (a roster pupil and the
 * same pupil's earlier sign-in), the sign-in lands on the first and the two are recorded as one school
 * number on two accounts, for the school admin to merge (merge-pupils.ts).
 */
const linkedUser = async (ctx: Context, connector: Connector, subject: string) => {
  const hash = schoolKeyOf(ctx.keys.identifiers, connector.schoolId, subject);
  const older = hmac(ctx.keys.identifiers, `school-subject:${connector.id}:${subject}`);
  const found = await keyedUsers(ctx.db, connector.schoolId, [hash, older]);
  const current = found.get(hash);
  const before = found.get(older);
  if (current !== undefined && before !== undefined && before !== current) {
    await recordNumberPair(ctx.db, connector.schoolId, current, before, ctx.now());
  } else if (current === undefined && before !== undefined) {
    await rekeyPerson(ctx.db, keyRow(ctx, connector, hash, before), older);
  }
  return { userId: current ?? before, hash };
};

const keyRow = (ctx: Context, connector: Connector, hash: string, userId: number) => ({
  school_id: connector.schoolId,
  key_hash: hash,
  user_id: userId,
  source: connector.kind,
  created_at: ctx.now(),
});

/** The account the school's key names now. */
const keyedUser = async (db: Context['db'], connector: Connector, hash: string) =>
  (await keyedUsers(db, connector.schoolId, [hash])).get(hash);

/**
 * The classes of the connector's school the identity names: for each name, the one of the latest school
 * year (archived ones left out), so a class attribute joins exactly one class a name.
 */
const namedClasses = async (db: Context['db'], connector: Connector, who: MappedIdentity) =>
  who.classNames.length === 0 ? [] : currentClassesNamed(await classesOfSchool(db, connector.schoolId), who.classNames);

/**
 * The age columns of a new account that lands as a pupil in classes of the school, as a pupil its
 * teacher creates (pupils.ts) or a roster import gets them: the band of the class's grade (the
 * youngest, where several are named) and, under 14, the school's agreement standing for the
 * guardians' consent where one is in force, else a guardian's consent to wait for. Anyone else (a
 * teacher, a pupil naming no class there) is left without a band, as before.
 */
const pupilAgeColumns = async (db: Context['db'], connector: Connector, who: MappedIdentity) => {
  if (who.role !== 'pupil') return {};
  const grades = (await namedClasses(db, connector, who)).map((c) => c.grade);
  if (grades.length === 0) return {};
  const consentBy = (await schoolConsentStands({ db }, connector.schoolId)) ? 'school' : 'guardian';
  return ageColumns(bandOfGrade(Math.min(...grades)), null, consentBy);
};

/** Teacher or pupil of the school and of the named classes that exist there (archived ones left out). */
const landInSchool = async (
  ctx: Context,
  db: Context['db'],
  connector: Connector,
  userId: number,
  who: MappedIdentity,
) => {
  if (who.role === undefined) return;
  const now = ctx.now();
  if (who.role === 'teacher') {
    await putSchoolMember(db, {
      school_id: connector.schoolId,
      user_id: userId,
      role: 'teacher',
      status: 'approved',
      created_at: now,
    });
  }
  const named = await namedClasses(db, connector, who);
  if (named.length === 0) return;
  await putClassMembers(
    db,
    named.map((c) => ({
      class_id: Number(c.id),
      user_id: userId,
      role: who.role ?? 'pupil',
      status: 'active',
      created_at: now,
    })),
  );
};

/** A new account holding the identity, both or neither; undefined when a parallel sign-in linked it first. */
const createLinkedUser = (ctx: Context, connector: Connector, hash: string, who: MappedIdentity) =>
  inTransaction(ctx, async (tx) => {
    const user =
      (await insertUser(
        tx.db,
        newUser(ctx, {
          pid: defaultPid(ctx),
          fullname: who.displayName ?? '',
          ...(await pupilAgeColumns(tx.db, connector, who)),
        }),
      )) ?? fail('AC3_26');
    if ((await insertPersonKeys(tx.db, [keyRow(ctx, connector, hash, user.id)])) !== 1) throw new LinkedMeanwhile();
    await recordUserCreated(tx, user, `school_${connector.kind}`);
    return user;
  }).catch((error: unknown) => {
    if (error instanceof LinkedMeanwhile) return undefined;
    throw error;
  });

class LinkedMeanwhile extends Error {}

/** Links the identity to an account that signed in on its own first; AC3_20 when it is someone else's. */
const linkToAccount = async (
  ctx: Context,
  connector: Connector,
  hash: string,
  linked: number | undefined,
  userId: number,
) => {
  if (linked !== undefined && linked !== userId) fail('AC3_20');
  if (linked === undefined) {
    const added = (await insertPersonKeys(ctx.db, [keyRow(ctx, connector, hash, userId)])) === 1;
    if (!added && (await keyedUser(ctx.db, connector, hash)) !== userId) fail('AC3_20');
  }
  return (await findUserById(ctx.db, userId)) ?? fail('AC3_3');
};

export interface SchoolSignIn {
  connector: Connector;
  identity: UpstreamIdentity;
  /** The upstream ticket the sign-in came with: single logout names it. */
  ticket: string;
  /**
   * The upstream session and person its logouts name: an OpenID Connect platform's `sid` and `sub`,
   * a SAML identity provider's SessionIndex and NameID.
   */
  upstream?:
    | { session?: string | undefined; subject?: string | undefined; signOut?: SignOutThere | undefined }
    | undefined;
  /** The signed-in account that asked to link this identity to itself, if it did. */
  linkTo?: number | undefined;
}

export const signInWithSchool = async (
  ctx: Context,
  input: SchoolSignIn,
  request: SignInRequest,
): Promise<SignedIn> => {
  const { connector } = input;
  const who =
    mapIdentity(connector.mapping, input.identity) ?? fail('AC3_27', 'The school system did not say who signed in.');
  const { userId: linked, hash } = await linkedUser(ctx, connector, who.subject);
  let user: User | undefined;
  if (input.linkTo !== undefined) user = await linkToAccount(ctx, connector, hash, linked, input.linkTo);
  else if (linked !== undefined) user = await findUserById(ctx.db, linked);
  else user = await createLinkedUser(ctx, connector, hash, who);
  if (user === undefined) {
    // The identity was linked by a parallel first sign-in (or its account is gone): read it again.
    const again = await keyedUser(ctx.db, connector, hash);
    user = (again !== undefined && (await findUserById(ctx.db, again))) || fail('AC3_3');
  }
  await landInSchool(ctx, ctx.db, connector, user.id, who);
  const signedIn = await signIn(ctx, user, `school_${connector.kind}`, request);
  const { sessionId } = await accessTokenClaims(ctx, signedIn.cookie.token);
  const key = sessionKey(sessionId);
  const signOut = input.upstream?.signOut;
  await insertSchoolSignIn(ctx.db, {
    ticket_hash: ticketHash(ctx, connector.id, input.ticket),
    connector_id: connector.id,
    user_id: user.id,
    session_key: key,
    created_at: ctx.now(),
    upstream_session: upstreamHash(ctx, connector.id, 'sid', input.upstream?.session) ?? null,
    upstream_subject: upstreamHash(ctx, connector.id, 'sub', input.upstream?.subject) ?? null,
    // Kept only where the connector signs out there: an ID token or a NameID is personal data.
    upstream_sign_out: connector.signOutAtSchool && signOut ? sealSignOut(ctx, key, signOut) : null,
  });
  return signedIn;
};

/** Single logout: ends the session the ticket started; false when it names none (or was ended already). */
export const endSchoolSignIn = async (ctx: Context, connector: Connector, ticket: string): Promise<boolean> => {
  const taken = await takeSchoolSignIn(ctx.db, connector.id, ticketHash(ctx, connector.id, ticket));
  if (!taken) return false;
  await endSessionByKey(ctx, taken.session_key, Number(taken.user_id), 'school_logout');
  return true;
};

/**
 * An upstream logout (OpenID Connect back-channel, SAML single logout): ends the sessions that the
 * upstream session `session` started, or every session the person `subject` started through the
 * connector, or (both named) that person's in that session. Answers how many ended.
 */
export const endPlatformSignIns = async (
  ctx: Context,
  connector: Connector,
  named: { session?: string | undefined; subject?: string | undefined },
): Promise<number> => {
  const taken = await takePlatformSignIns(ctx.db, connector.id, {
    upstreamSession: upstreamHash(ctx, connector.id, 'sid', named.session),
    upstreamSubject: upstreamHash(ctx, connector.id, 'sub', named.subject),
  });
  for (const row of taken) await endSessionByKey(ctx, row.session_key, Number(row.user_id), 'school_logout');
  return taken.length;
};
