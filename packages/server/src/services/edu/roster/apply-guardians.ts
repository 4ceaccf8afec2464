/**
 * The last step of confirming an address book: the guardians it lists, as invites each guardian
 * confirms (services/edu/family/school-invites.ts), made 500 a statement; changed and removed ones.
 */
import { deleteInvites, insertInvites, updateInvites } from '../../../store/edu/family/guardian-invites.ts';
import type { Run } from './apply.ts';

export const applyGuardians = async (run: Run) => {
  const { db, now, plan } = run;
  const rows = [];
  for (const g of plan.newInvites) {
    rows.push({
      source_hash: g.ref,
      school_id: await run.schoolIdOf(g.orgRef),
      child_id: await run.idOf('user', g.childRef),
      relation: g.relation,
      phone: g.phone,
      created_at: now,
      confirmed_at: null,
      guardian_id: null,
    });
  }
  await insertInvites(db, rows);
  await updateInvites(db, plan.changeInvites);
  await deleteInvites(db, plan.removeInvites);
};
