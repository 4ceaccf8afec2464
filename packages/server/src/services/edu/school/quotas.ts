/**
 * Daily quotas on pupil creation: batches per teacher and per school, counted with the shared
 * counters' atomic increment (as the sign-in lockout is), so parallel requests cannot all read "one
 * left". A batch refused by the school's quota still counts against the teacher's day: the count is
 * of attempts past validation, the price of deciding without a read-then-write.
 */
import { DAY_SECONDS } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { RefusedForNow } from '../../../errors.ts';

const QUOTA_MESSAGE = 'The daily limit of pupil batches is reached. Try again tomorrow.';

export const teacherBatchKey = (userId: number) => `edu-batches-teacher:${userId}`;
export const schoolBatchKey = (schoolId: number) => `edu-batches-school:${schoolId}`;

export const schoolDailyBatches = (ctx: Context, school: { daily_batches: number | null }) =>
  school.daily_batches ?? ctx.config.eduSchoolDailyBatches;

const takeOne = async (ctx: Context, key: string, limit: number) => {
  if ((await ctx.counters.hit(key, DAY_SECONDS)) > limit) {
    throw new RefusedForNow('AC3_48', await ctx.counters.ttl(key), QUOTA_MESSAGE);
  }
};

/** Takes one batch of the teacher's day and one of the school's, or refuses with AC3_48 and `retry_after`. */
export const takePupilBatch = async (
  ctx: Context,
  teacherId: number,
  school: { id: number; daily_batches: number | null },
) => {
  await takeOne(ctx, teacherBatchKey(teacherId), ctx.config.eduTeacherDailyBatches);
  await takeOne(ctx, schoolBatchKey(school.id), schoolDailyBatches(ctx, school));
};

export const schoolBatchesUsed = (ctx: Context, schoolId: number) => ctx.counters.peek(schoolBatchKey(schoolId));
