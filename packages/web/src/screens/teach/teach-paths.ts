/** The teacher area's addresses, and which of its screens a path names. */

export const teachPaths = {
  home: '/teach',
  class: (classId: number) => `/teach/classes/${classId}`,
  pupil: (classId: number, userId: number) => `/teach/classes/${classId}/pupils/${userId}`,
  school: (schoolId: number) => `/teach/schools/${schoolId}`,
};

export type TeachPlace =
  | { screen: 'home' }
  | { screen: 'class'; classId: number }
  | { screen: 'pupil'; classId: number; userId: number }
  | { screen: 'school'; schoolId: number }
  | { screen: 'unknown' };

const id = (text: string | undefined) => {
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
};

export const teachPlace = (path: string): TeachPlace => {
  const parts = path.replace(/\/+$/, '').split('/').slice(2);
  if (parts.length === 0) return { screen: 'home' };
  const [kind, first, sub, second] = parts;
  const firstId = id(first);
  if (kind === 'schools' && firstId && parts.length === 2) return { screen: 'school', schoolId: firstId };
  if (kind !== 'classes' || !firstId) return { screen: 'unknown' };
  if (parts.length === 2) return { screen: 'class', classId: firstId };
  const userId = id(second);
  if (sub === 'pupils' && userId && parts.length === 4) return { screen: 'pupil', classId: firstId, userId };
  return { screen: 'unknown' };
};
