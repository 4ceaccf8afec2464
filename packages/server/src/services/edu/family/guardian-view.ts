/**
 * A linked guardian's view of a child (the web client's /guardian): the child's record, consent
 * decisions, linked guardians, signed-in devices and minor mode; signing a device out and deleting the
 * account (with the grace period of services/account/deletion.ts). Every read
 * writes an access-log row (access-log.ts), so the child and the other guardians see who looked.
 */
import type { ChildRecord } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { fail, invalidRequest } from '../../../errors.ts';
import { findUserById } from '../../../store/account/users.ts';
import { consentRecordsOf } from '../../../store/edu/family/guardians.ts';
import { findPupilAccount } from '../../../store/edu/school/pupils.ts';
import { cancelDeletion, deleteAccount } from '../../account/deletion.ts';
import { securityEvent } from '../../security/events.ts';
import { devicesOf, endDeviceOf } from '../../sessions/devices.ts';
import { logReads } from '../access-log.ts';
import { currentBand } from './age.ts';
import { guardianList } from './guardian-links.ts';
import { requireGuardian } from './guardian-requests.ts';
import { defaultLimits, minorModeOf } from './minor-mode.ts';

const CHILD_RECORD_FIELDS = ['name', 'username', 'age', 'consent', 'guardians', 'devices', 'minor_mode'] as const;

export const childRecord = async (ctx: Context, guardianId: number, childId: number): Promise<ChildRecord> => {
  await requireGuardian(ctx, guardianId, childId);
  const child = (await findUserById(ctx.db, childId)) ?? fail('E_2');
  const [consents, guardians, devices, minor, pupil] = await Promise.all([
    consentRecordsOf(ctx.db, childId),
    guardianList(ctx, childId),
    devicesOf(ctx, childId),
    minorModeOf(ctx, child),
    findPupilAccount(ctx.db, childId),
  ]);
  await logReads(ctx, {
    readerId: guardianId,
    role: 'guardian',
    subjectIds: [childId],
    fields: CHILD_RECORD_FIELDS,
    purpose: 'guardian_view',
  });
  return {
    child: {
      id: child.id,
      nickname: child.nickname ?? '',
      pupil_name: pupil?.display_name ?? null,
      fullname: child.fullname,
      username: child.username ?? '',
      birth_year_month: child.birth_year_month ?? '',
      age_band: currentBand(child, ctx.now()),
      consent_state: child.consent_state,
      frozen: child.blocked_at !== null || child.erase_at !== null,
      guardian_deletion_at: child.erase_requested_by === 'guardian_request' ? child.erase_at : null,
      relation: guardians.find((g) => g.id === guardianId)?.relation ?? '',
    },
    consents: consents.map((c) => ({
      decision: c.decision,
      method: c.method,
      text_version: Number(c.text_version),
      scopes: c.scopes.split(' ').filter(Boolean),
      at: Number(c.created_at),
    })),
    guardians,
    devices,
    minor,
    defaults: defaultLimits(ctx.config, currentBand(child, ctx.now())),
  };
};

/** A linked guardian signs one of the child's devices out at once. */
export const endChildDevice = async (ctx: Context, guardianId: number, childId: number, key: string) => {
  await requireGuardian(ctx, guardianId, childId);
  const child = (await findUserById(ctx.db, childId)) ?? fail('E_2');
  await endDeviceOf(ctx, child, key, 'signed_out_by_guardian');
};

/**
 * A linked guardian deletes the child's account: frozen at once, erased after the grace period. Only a
 * guardian stops it meanwhile (`keepChildAccount`): signing in as the child offers no way to keep it
 * (services/account/deletion-gate.ts), since whoever can sign in as the child (the child, a card's
 * holder, the school) must not undo the guardian's decision.
 */
export const deleteChildAccount = async (ctx: Context, guardianId: number, childId: number) => {
  await requireGuardian(ctx, guardianId, childId);
  await deleteAccount(ctx, childId, 'guardian_request');
};

/** A linked guardian stops a deletion a guardian asked for, before its grace period ends. */
export const keepChildAccount = async (ctx: Context, guardianId: number, childId: number) => {
  await requireGuardian(ctx, guardianId, childId);
  const child = (await findUserById(ctx.db, childId)) ?? fail('E_2');
  if (child.erase_at === null || child.erase_requested_by !== 'guardian_request') {
    throw invalidRequest("No deletion a guardian asked for is waiting on this child's account.");
  }
  if (await cancelDeletion(ctx, child)) {
    securityEvent(ctx, { event: 'account_deletion_cancelled', userId: childId, reason: `by guardian ${guardianId}` });
  }
};
