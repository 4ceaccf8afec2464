/**
 * A school's agreement for the pupils its teachers create: for them the school's consent stands first
 * (issue 31, item 2). The school's operator records it in the console — who signed for the school,
 * on which day — under the consent text's current version; the newest agreement not ended is in
 * force. A pupil created while one is in force starts `school`; one created in a school without an
 * agreement starts `pending`, as a child who signed up alone: without the community scope until a
 * guardian consents (from the child's consent link), and deleted after EDU_CONSENT_PENDING_DAYS.
 * Ending an agreement changes no account already created.
 */
import type { Selectable } from 'kysely';
import type { Context } from '../../../context.ts';
import { fail, invalidRequest } from '../../../errors.ts';
import type { SchoolAgreementsTable } from '../../../store/edu/edu-schema.ts';
import {
  agreementInForce,
  endSchoolAgreements,
  insertSchoolAgreement,
  schoolAgreements,
} from '../../../store/edu/family/guardian-checks.ts';
import { findSchool } from '../../../store/edu/school/schools.ts';
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
});

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
  input: { signatory: string; signed_on: string },
) => {
  const school = await schoolOrMissing(ctx, schoolId);
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
    });
  });
  await eduAudit(
    ctx,
    operatorId,
    'school.agreement.record',
    `school:${school.id}`,
    `signed ${row.signed_on}, text v${row.text_version}`,
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
