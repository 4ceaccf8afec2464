/**
 * The step of an address book's plan after the memberships: the guardians it lists. A guardian of a
 * pupil who exists after the import, not listed before, is a new invite (pending until that guardian
 * confirms); one listed before with another relation or phone is changed (unless confirmed already);
 * one the book of its school no longer lists is removed (a guardian who confirmed stays linked: the
 * family decides that, not the school's book). Files (OneRoster, the template) list no guardians and
 * leave invites as they are.
 */
import { invitesByHash, invitesOfSchools } from '../../../store/edu/family/guardian-invites.ts';
import type { Planning } from './plan.ts';
import type { People } from './plan-people.ts';
import type { Schools } from './plan-schools.ts';

export const planGuardians = async ({ ctx, roster, plan }: Planning, schools: Schools, people: People) => {
  const listed = roster.guardians;
  if (!listed) return;
  const rows = [
    ...(await invitesByHash(
      ctx.db,
      listed.map((g) => g.ref),
    )),
    ...(await invitesOfSchools(ctx.db, [...schools.involved])),
  ];
  const existing = new Map(rows.map((r) => [r.source_hash, r]));
  const inBook = new Set<string>();
  for (const g of listed) {
    if (people.known.get(g.childRef) !== 'pupil' || inBook.has(g.ref)) continue;
    inBook.add(g.ref);
    const phone = g.phone === '' ? null : g.phone;
    const row = existing.get(g.ref);
    if (!row) {
      plan.newInvites.push({ ref: g.ref, childRef: g.childRef, orgRef: g.orgRef, relation: g.relation, phone });
    } else if (row.confirmed_at === null && (row.relation !== g.relation || row.phone !== phone)) {
      plan.changeInvites.push({ ref: g.ref, relation: g.relation, phone });
    }
  }
  for (const [ref, row] of existing) {
    if (!inBook.has(ref) && schools.involved.has(Number(row.school_id))) plan.removeInvites.push(ref);
  }
};
