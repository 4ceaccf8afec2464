/**
 * The last step of a plan: the holds. A file that would take more than the set share of a school's
 * listed people away holds the import until it is confirmed with `accept_removals`.
 */
import { listedPeopleBySchool } from '../../../store/edu/roster/roster.ts';
import type { Planning } from './plan.ts';
import type { Schools } from './plan-schools.ts';

export const holdLargeRemovals = async ({ ctx, plan }: Planning, schools: Schools, holdPercent: number) => {
  const listed = await listedPeopleBySchool(ctx.db, [...new Set(plan.removeUsers.map((r) => r.schoolId))]);
  const removedBySchool = new Map<number, number>();
  for (const r of plan.removeUsers) removedBySchool.set(r.schoolId, (removedBySchool.get(r.schoolId) ?? 0) + 1);
  for (const [schoolId, removed] of removedBySchool) {
    const total = listed.get(schoolId) ?? 0;
    const percent = total === 0 ? 0 : Math.round((removed * 1000) / total) / 10;
    // Compared exactly (not the rounded share): with no share allowed, one removal of thousands holds.
    if (total > 0 && removed * 100 > holdPercent * total) {
      plan.holds.push({ schoolId, name: schools.byId.get(schoolId)?.name ?? '', removed, listed: total, percent });
    }
  }
};
