/**
 * A school's agreement for the pupils its teachers create: for them the school's consent stands first
 * (issue 31, item 2). The school's operator records it in the console — who signed for the school,
 * on which day — under the consent text's current version; the newest agreement not ended is in
 * force. A pupil created while one is in force starts `school`; one created in a school without an
 * agreement starts `pending`, as a child who signed up alone: without the community scope until a
 * guardian consents (from the child's consent link), and deleted after EDU_CONSENT_PENDING_DAYS.
 * Ending an agreement changes no account already created.
 *
 * An agreement may name third-party applications the school uses (`applications`, their client ids;
 * migration 039): while it stands, they receive of a pupil under it (`school`) what the operator's own
 * products do — the name, profile and school claims, never a phone or an e-mail address — where a
 * third party it does not name gets only what protects the child (disclosure.ts).
 *
 * While it stands, the agreement is also the pupils' acceptance of the platform's own agreements
 * (`signedBySchool`): a child handed a login card is not asked to accept terms they cannot read, nor
 * offered "disagree and sign out" as their first screen.
 */
import { AGREEMENT_APPLICATIONS_MAX } from '@edupass/protocol';
import type { Selectable } from 'kysely';
import type { Context } from '../../../context.ts';
import { fail, invalidRequest } from '../../../errors.ts';
import type { SchoolAgreementsTable } from '../../../store/edu/edu-schema.ts';
import {
  agreementInForce,
  endSchoolAgreements,
  insertSchoolAgreement,
  pupilsSchoolHasAgreement,
  schoolAgreements,
} from '../../../store/edu/family/guardian-checks.ts';
import { findPupilAccount } from '../../../store/edu/school/pupils.ts';
import { findSchool } from '../../../store/edu/school/schools.ts';
import type { User } from '../../../store/schema.ts';
import { findApplication } from '../../identity/request-reads.ts';
import { inTransaction } from '../../webhooks/events.ts';
import { eduAudit } from '../audit.ts';
import { currentConsentText } from './consent-text.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const view = (row: Selectable<SchoolAgreementsTable>) => ({
  id: Number(row.id),
  school_id: Number(row.school_id),
  signatory: row.signatory,
  signed_on: row.signed_on,
  text_version: row.text_version,
  recorded_by: Number(row.recorded_by),
  recorded_at: Number(row.recorded_at),
  ended_at: row.ended_at === null ? null : Number(row.ended_at),
  applications: applicationsOf(row),
});

/** The client ids an agreement names (its `applications` column). */
export const applicationsOf = (row: Pick<Selectable<SchoolAgreementsTable>, 'applications'>): string[] => {
  const parsed: unknown = JSON.parse(row.applications);
  return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
};

/** The client ids named, once each, every one a registered third-party application (E_1 otherwise). */
const coveredApplications = async (ctx: Context, given: readonly string[] | undefined) => {
  const ids = [...new Set((given ?? []).map((id) => id.trim()))];
  if (ids.length > AGREEMENT_APPLICATIONS_MAX) {
    throw invalidRequest(`applications names at most ${AGREEMENT_APPLICATIONS_MAX} applications.`);
  }
  for (const id of ids) {
    const app = id === '' ? undefined : await findApplication(ctx.db, id);
    if (app === undefined) throw invalidRequest(`applications: ${JSON.stringify(id)} is no registered application.`);
    if (app.first_party === 1) {
      throw invalidRequest(
        `applications: ${app.name} is one of the platform's own applications, which every agreement covers.`,
      );
    }
  }
  return ids;
};

const schoolOrMissing = async (ctx: Context, schoolId: number) => (await findSchool(ctx.db, schoolId)) ?? fail('E_2');

export const listSchoolAgreements = async (ctx: Context, schoolId: number) => {
  await schoolOrMissing(ctx, schoolId);
  return (await schoolAgreements(ctx.db, schoolId)).map(view);
};

/** A day that exists, not after today (UTC+8 allowed: a paper signed this morning in Beijing). */
const signedOn = (value: string, now: number) => {
  const match = DAY.exec(value);
  const at = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (
    !match ||
    new Date(at).toISOString().slice(0, 10) !== value ||
    at > now + 8 * 3_600_000 ||
    at < Date.UTC(2000, 0, 1)
  ) {
    throw invalidRequest('signed_on must be the day the school signed, YYYY-MM-DD, not in the future.');
  }
  return value;
};

export const recordSchoolAgreement = async (
  ctx: Context,
  operatorId: number,
  schoolId: number,
  input: { signatory: string; signed_on: string; applications?: readonly string[] | undefined },
) => {
  const school = await schoolOrMissing(ctx, schoolId);
  const applications = await coveredApplications(ctx, input.applications);
  const signatory = input.signatory.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (signatory === '' || /[\u0000-\u001f\u007f]/.test(signatory)) {
    throw invalidRequest('signatory names who signed for the school (a name and role).');
  }
  const signed = signedOn(input.signed_on, ctx.now());
  const textVersion = (await currentConsentText(ctx)).version;
  // A new agreement replaces the one in force: at most one stands at a time.
  const row = await inTransaction(ctx, async (tx) => {
    await endSchoolAgreements(tx.db, school.id, tx.now());
    return insertSchoolAgreement(tx.db, {
      school_id: school.id,
      signatory,
      signed_on: signed,
      text_version: textVersion,
      recorded_by: operatorId,
      recorded_at: tx.now(),
      ended_at: null,
      applications: JSON.stringify(applications),
    });
  });
  await eduAudit(
    ctx,
    operatorId,
    'school.agreement.record',
    `school:${school.id}`,
    `signed ${row.signed_on}, text v${row.text_version}${applications.length > 0 ? `, covers ${applications.join(' ')}` : ''}`,
  );
  return view(row);
};

export const endSchoolAgreement = async (ctx: Context, operatorId: number, schoolId: number) => {
  await schoolOrMissing(ctx, schoolId);
  if ((await endSchoolAgreements(ctx.db, schoolId, ctx.now())) === 0) {
    throw invalidRequest('The school has no agreement in force.');
  }
  await eduAudit(ctx, operatorId, 'school.agreement.end', `school:${schoolId}`);
};

/** Whether pupils created in the school now start under the school's consent. */
export const schoolConsentStands = async (ctx: Pick<Context, 'db'>, schoolId: number) =>
  (await agreementInForce(ctx.db, schoolId)) !== undefined;

/**
 * Whether the agreement in force at the school that created the pupil's account names the
 * application: what a third party receives of a pupil under the school's consent (disclosure.ts).
 */
export const agreementCovers = async (ctx: Pick<Context, 'db'>, pupilId: number, clientId: string) => {
  const pupil = await findPupilAccount(ctx.db, pupilId);
  const agreement = pupil === undefined ? undefined : await agreementInForce(ctx.db, Number(pupil.school_id));
  return agreement !== undefined && applicationsOf(agreement).includes(clientId);
};

/**
 * Whether the school accepted the platform's agreements for the pupil: an account the school made
 * (by a teacher or a roster) and still manages (no phone of the pupil's own), under the school's
 * consent (`school`; 14 and over, none needed), at a school whose agreement is in force. Such a pupil
 * has no agreements of their own to sign (services/account/agreements.ts); ending the agreement, or
 * the pupil taking the account over with a phone, brings the gate back.
 */
export const agreementsSignedBySchool = async (
  ctx: Pick<Context, 'db'>,
  user: Pick<User, 'id' | 'phone' | 'consent_state'>,
): Promise<boolean> => {
  if (user.phone || (user.consent_state !== 'school' && user.consent_state !== null)) return false;
  return pupilsSchoolHasAgreement(ctx.db, user.id);
};

/**
 * Whether the platform's agreements are not the pupil's to sign: accepted by the school (above), or,
 * for a child under 14 the school made and still manages at a school without an agreement, decided by
 * a guardian — while the child waits (`pending`: the account can do little, and a parent's consent or
 * its absence settles it) and after a guardian agreed (`granted`). A child is not shown legal text meant
 * for adults; a pupil who takes the account over with a phone of their own signs like anyone.
 */
export const agreementsNotThePupils = async (
  ctx: Pick<Context, 'db'>,
  user: Pick<User, 'id' | 'phone' | 'consent_state'>,
): Promise<boolean> => {
  if (!user.phone && (user.consent_state === 'pending' || user.consent_state === 'granted')) {
    return (await findPupilAccount(ctx.db, user.id)) !== undefined;
  }
  return agreementsSignedBySchool(ctx, user);
};
