/**
 * The first step of a plan: which school each org of the file is. An org already linked keeps its
 * school (renamed when the file names it otherwise); an unlinked one is matched to the school named
 * for a one-school file, else to a school of exactly its name not matched yet, else is to be created.
 */
import { linksByHash, type RosterLink } from '../../../store/edu/roster/roster.ts';
import { allSchools } from '../../../store/edu/school/schools.ts';
import type { Planning } from './plan.ts';

export type SchoolRow = Awaited<ReturnType<typeof allSchools>>[number];

export interface Schools {
  /** An org's school: an existing school's id, or the org's own ref when it is to be created. */
  schoolOf: Map<string, number | string>;
  /** The links of the orgs the file names (in any file), by ref. */
  orgLinks: Map<string, RosterLink>;
  byId: Map<number, SchoolRow>;
  /** The existing schools the file speaks for: a bulk file removes what it leaves out of them. */
  involved: Set<number>;
}

export const byHash = (links: RosterLink[]) => new Map(links.map((l) => [l.source_hash, l]));

export const resolveSchools = async (
  { ctx, roster, plan }: Planning,
  schoolId: number | undefined,
): Promise<Schools> => {
  const orgRefs = [...roster.orgs.map((o) => o.ref), ...roster.classes.map((c) => c.orgRef)];
  for (const u of roster.users) if (u.orgRef) orgRefs.push(u.orgRef);
  const orgLinks = byHash(await linksByHash(ctx.db, 'org', orgRefs));
  const schools = await allSchools(ctx.db);
  const byId = new Map(schools.map((s) => [Number(s.id), s]));
  const schoolOf = new Map<string, number | string>();
  for (const [ref, link] of orgLinks) schoolOf.set(ref, Number(link.school_id));
  const listedOrgs = roster.orgs.filter((o) => !o.deleted);
  const claimed = new Set<number>();
  for (const org of listedOrgs) {
    const linked = orgLinks.get(org.ref);
    if (linked) {
      const current = byId.get(Number(linked.school_id));
      if (current && current.name !== org.name) {
        plan.renameSchools.push({ schoolId: Number(current.id), from: current.name, to: org.name });
      }
      continue;
    }
    const named =
      schoolId !== undefined && listedOrgs.length === 1
        ? byId.get(schoolId)
        : schools.find((s) => s.name === org.name && !claimed.has(Number(s.id)));
    if (named) {
      claimed.add(Number(named.id));
      schoolOf.set(org.ref, Number(named.id));
      plan.linkSchools.push({ ref: org.ref, schoolId: Number(named.id), name: named.name });
      if (named.name !== org.name)
        plan.renameSchools.push({ schoolId: Number(named.id), from: named.name, to: org.name });
    } else {
      schoolOf.set(org.ref, org.ref);
      plan.newSchools.push({ ref: org.ref, name: org.name });
    }
  }
  const involved = new Set<number>();
  for (const org of listedOrgs) {
    const school = schoolOf.get(org.ref);
    if (typeof school === 'number') involved.add(school);
  }
  if (schoolId !== undefined) involved.add(schoolId);
  return { schoolOf, orgLinks, byId, involved };
};
