import { routes } from '@edupass/protocol';
import { PID, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';
import { drawUsername } from './credentials.ts';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

/** A letter or digit a child finds on a tablet's first keyboard layer, and no look-alike (no 0/o, 1/l/i). */
const DRAWN = '[a-hjkmnp-z2-9]';
const signsIn = async (identity: string, password: string) =>
  (await call('POST', routes.loginByPassword.path, { identity, password, pid: PID }, { headers: TOKEN_SET_HEADERS }))
    .status;

describe("a pupil's username is typed without the symbol layer", () => {
  test('drawn usernames are letters and digits: the school, a letter that ends its digits, four characters', () => {
    for (const schoolId of [1, 12, 101, 2048]) {
      for (let i = 0; i < 200; i++) {
        const name = drawUsername(schoolId);
        expect(name).toMatch(new RegExp(`^s${schoolId}[a-hjkmnp-z]${DRAWN}{4}$`));
        // The school reads back from the name alone: school 1's names never look like school 12's.
        expect(Number(/^s(\d+)/.exec(name)?.[1])).toBe(schoolId);
      }
    }
  });

  test('new pupils sign in by a name of letters and digits, typed in either case; an earlier name with `_` still signs in', async () => {
    const schoolId = await edu.addSchool('字母小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const pupils = await edu.createPupils(teacher, classId, ['王子涵', '李雨桐', '张一鸣']);
    expect(new Set(pupils.map((p) => p.username)).size).toBe(3);
    for (const p of pupils) {
      expect(p.username).toMatch(new RegExp(`^s${schoolId}[a-z]${DRAWN}{4}$`));
      expect(p.username).not.toContain('_');
    }
    const [first, second] = pupils;
    if (!first || !second) throw new Error('no pupils');
    expect(await signsIn(first.username, first.password)).toBe(200);
    // A tablet that capitalises the first letter does not lock the child out.
    expect(await signsIn(first.username.toUpperCase(), first.password)).toBe(200);

    // A pupil whose name was drawn before (`s<school>_xxxxx`) keeps it and signs in with it.
    const earlier = `s${schoolId}_k7mp3`;
    await server.app.ctx.db
      .updateTable('users')
      .set({ username: earlier, username_key: earlier })
      .where('id', '=', second.user_id)
      .execute();
    expect(await signsIn(earlier, second.password)).toBe(200);
  });
});
