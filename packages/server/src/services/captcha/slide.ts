/**
 * EduPass's slide puzzle: challenges drawn here and kept here (the gap never leaves the server),
 * answerable once and briefly; a wrong or replayed answer counts toward the caller's risk.
 */
import { CAPTCHA_MESSAGES, type SlideChallenge, type SlideInput } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail, RefusedForNow } from '../../errors.ts';
import { deleteExpiredChallenges, putChallenge, takeChallenge } from '../../store/captcha/captcha.ts';
import { countedAddress } from '../security/counted-address.ts';
import { hmac, randomToken } from '../security/hashing.ts';
import { drawPuzzle, PIECE_SIZE, PUZZLE_HEIGHT, PUZZLE_WIDTH } from './puzzle.ts';
import { recordCaptchaFailure } from './risk.ts';
import { issueCaptchaTicket, normalizeIdentity, normalizeScene } from './tickets.ts';
import { judgeSlide } from './trajectory.ts';

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

export const createSlideChallenge = async (
  ctx: Context,
  input: { scene?: string | undefined; identity?: string | undefined; deviceId?: string | undefined },
  ip: string,
): Promise<SlideChallenge> => {
  // Drawing costs CPU, so it is the thing to ration per IP (CAPTCHA_SLIDE_IP_PER_MINUTE); the refusal
  // says when the minute ends (`retry_after`), as the code send limits do.
  const rationKey = `captcha-slide-ip:${countedAddress(ctx, ip)}`;
  if ((await ctx.counters.hit(rationKey, 60)) > ctx.config.captcha.slideIpPerMinute)
    throw new RefusedForNow('AC3_23', await ctx.counters.ttl(rationKey));
  ctx.metrics.captchaChallenges.inc({ provider: 'slide' });
  const puzzle = await drawPuzzle();
  const id = randomToken(18);
  const now = ctx.now();
  const ttl = ctx.config.captcha.challengeTtlSeconds;
  // Old challenges are swept by whoever draws a new one; the table never grows past a few minutes' worth.
  if (Math.random() < 0.05) await deleteExpiredChallenges(ctx.db, now);
  await putChallenge(ctx.db, {
    id_hash: hmac(ctx.keys.codes, id),
    answer_x: puzzle.x,
    scene: normalizeScene(input.scene),
    identity: normalizeIdentity(input.identity),
    ip,
    device_id: (input.deviceId ?? '').slice(0, 256),
    created_at: now,
    expires_at: now + ttl * 1000,
    used_at: null,
  });
  return {
    id,
    background: dataUrl(puzzle.background),
    piece: dataUrl(puzzle.piece),
    width: PUZZLE_WIDTH,
    height: PUZZLE_HEIGHT,
    pieceY: puzzle.y,
    pieceWidth: PIECE_SIZE,
    pieceHeight: PIECE_SIZE,
    expiresIn: ttl,
  };
};

export const answerSlideChallenge = async (
  ctx: Context,
  answer: { id: string; x: number; trajectory: unknown; input?: string | undefined },
  ip: string,
): Promise<{ ticket: string }> => {
  const challenge = await takeChallenge(ctx.db, hmac(ctx.keys.codes, answer.id), ctx.now());
  if (!challenge) {
    // Unknown, expired or answered before: a replay is as suspicious as a wrong answer.
    await recordCaptchaFailure(
      ctx,
      { identity: '', ip, deviceId: '' },
      'slide: unknown, expired or replayed challenge',
    );
    return fail('10017004', CAPTCHA_MESSAGES.rejected);
  }
  const input: SlideInput = answer.input === 'keyboard' ? 'keyboard' : 'pointer';
  const judgement = judgeSlide({
    answerX: challenge.answer_x,
    x: answer.x,
    trajectory: answer.trajectory,
    input,
    tolerance: ctx.config.captcha.slideTolerance,
  });
  if (!judgement.pass) {
    ctx.logger.info({ reason: judgement.reason }, 'slide answer refused');
    await recordCaptchaFailure(
      ctx,
      { identity: challenge.identity, ip, deviceId: challenge.device_id },
      `slide: ${judgement.reason}`,
    );
    return fail('10017004', CAPTCHA_MESSAGES.rejected);
  }
  return { ticket: await issueCaptchaTicket(ctx, { scene: challenge.scene, identity: challenge.identity }, 'SLIDE') };
};
