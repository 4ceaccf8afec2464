import { describe, expect, it } from 'vitest';
import { isEduEvent, isTeacherOf, readEduClaims } from './edu.ts';

describe('the edu claims and events, typed', () => {
  it('reads the claims of the edu scope and refuses other shapes', () => {
    const claims = {
      sub: '7',
      managed_by_school: true,
      edu: {
        schools: [],
        classes: [{ id: 3, school_id: 1, name: '四年级一班', grade: 4, school_year: '2026', roles: ['pupil'] }],
      },
    };
    expect(readEduClaims(claims)).toEqual({ schools: [], classes: claims.edu.classes, managedBySchool: true });
    expect(readEduClaims({ sub: '7' })).toBeUndefined();
    expect(readEduClaims({ ...claims, edu: { schools: [{ id: 'x' }], classes: [] } })).toBeUndefined();
    expect(readEduClaims({ ...claims, managed_by_school: 'yes' })).toBeUndefined();
  });

  it("reads an ID token's compact form (ids and roles, no names) and answers whom a user teaches", () => {
    const idToken = {
      sub: '9',
      managed_by_school: false,
      edu: {
        schools: [{ id: 1, roles: ['teacher'] }],
        classes: [
          { id: 3, school_id: 1, roles: ['head_teacher'] },
          { id: 4, school_id: 1, roles: ['pupil'] },
        ],
      },
    };
    const claims = readEduClaims(idToken);
    expect(claims).toEqual({ schools: idToken.edu.schools, classes: idToken.edu.classes, managedBySchool: false });
    if (claims === undefined) throw new Error('claims expected');
    expect(isTeacherOf(claims, 3)).toBe(true);
    expect(isTeacherOf(claims, 4)).toBe(false);
    expect(isTeacherOf(claims, 5)).toBe(false);
    expect(
      readEduClaims({ ...idToken, edu: { schools: [{ id: 1, name: 7, roles: [] }], classes: [] } }),
    ).toBeUndefined();
  });

  it('tells the education events apart', () => {
    expect(isEduEvent({ type: 'pupils.created', data: { school_id: 1, class_id: 2, user_ids: [5, 6] } })).toBe(true);
    expect(isEduEvent({ type: 'class.changed', data: { change: 'archived', class: { id: 2 } } })).toBe(true);
    expect(isEduEvent({ type: 'user.created', data: {} })).toBe(false);
    expect(isEduEvent({ type: 'pupils.created', data: { user_ids: ['5'] } })).toBe(false);
  });
});
