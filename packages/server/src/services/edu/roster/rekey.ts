/**
 * Roster links after a settings-key rotation: a link holds `HMAC(settings key, kind:id)`, so once the
 * key rotates a file's ids no longer hash to the links made before. The same file is read again under
 * the previous key (from `JWT_SECRET_PREVIOUS`), and a link found only under the previous hash is
 * keyed again under the current one, as school sign-in re-keys its subject hashes: the import then
 * matches it instead of creating the school, class or pupil again.
 */
import type { Context } from '../../../context.ts';
import { linksByHash, rekeyLink } from '../../../store/edu/roster.ts';
import type { RefKind, Roster } from './model.ts';

/** Previous-key ref → current-key ref, by kind, for every id the file names (the two reads line up row for row). */
const refPairs = (current: Roster, previous: Roster) => {
  const pairs = new Map<RefKind, Map<string, string>>([
    ['org', new Map()],
    ['class', new Map()],
    ['user', new Map()],
    ['enrollment', new Map()],
  ]);
  const add = (kind: RefKind, old: string | undefined, now: string | undefined) => {
    if (old !== undefined && now !== undefined && old !== now) pairs.get(kind)?.set(old, now);
  };
  for (const [i, org] of current.orgs.entries()) add('org', previous.orgs[i]?.ref, org.ref);
  for (const [i, c] of current.classes.entries()) {
    add('class', previous.classes[i]?.ref, c.ref);
    add('org', previous.classes[i]?.orgRef, c.orgRef);
  }
  for (const [i, u] of current.users.entries()) {
    add('user', previous.users[i]?.ref, u.ref);
    add('org', previous.users[i]?.orgRef, u.orgRef);
  }
  for (const [i, e] of current.enrollments.entries()) {
    add('enrollment', previous.enrollments[i]?.ref, e.ref);
    add('class', previous.enrollments[i]?.classRef, e.classRef);
    add('user', previous.enrollments[i]?.userRef, e.userRef);
  }
  return pairs;
};

/**
 * Keys again under the current key the links this file's ids made under the previous key (a link
 * already under the current key is left as it is); answers how many. Nothing the import shows changes.
 */
export const rekeyRosterLinks = async (
  ctx: Pick<Context, 'db'>,
  current: Roster,
  previous: Roster,
): Promise<number> => {
  let rekeyed = 0;
  for (const [kind, pairs] of refPairs(current, previous)) {
    const old = await linksByHash(ctx.db, kind, [...pairs.keys()]);
    if (old.length === 0) continue;
    const taken = new Set(
      (
        await linksByHash(
          ctx.db,
          kind,
          old.map((link) => pairs.get(link.source_hash) ?? ''),
        )
      ).map((l) => l.source_hash),
    );
    for (const link of old) {
      const now = pairs.get(link.source_hash);
      if (now === undefined || taken.has(now)) continue;
      await rekeyLink(ctx.db, kind, link.source_hash, now);
      rekeyed++;
    }
  }
  return rekeyed;
};
