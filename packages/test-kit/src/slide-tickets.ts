/**
 * Passing EduPass's slide puzzle over HTTP, as a person would: draw a challenge, drag like a hand to
 * the gap (read where only the server keeps it), and take the ticket the server hands out.
 */
import type { SlideChallenge } from '@edupass/protocol';
import { expect } from 'vitest';
import { hmac } from '../../server/src/services/security/hashing.ts';
import type { CaptchaTables } from '../../server/src/store/captcha/captcha.ts';
import type { TestServer } from './harness.ts';
import { client } from './http-client.ts';
import { humanDrag } from './slide-drags.ts';

/** The gap's position of a challenge. */
export const slideAnswerOf = async (server: TestServer, id: string): Promise<number> => {
  const row = await server.app.ctx.db
    .withTables<CaptchaTables>()
    .selectFrom('captcha_challenges')
    .select('answer_x')
    .where('id_hash', '=', hmac(server.app.ctx.keys.codes, id))
    .executeTakeFirstOrThrow();
  return row.answer_x;
};

/** A fresh challenge with its answer. */
export const drawSlide = async (server: TestServer, body: Record<string, unknown>) => {
  const answer = await client(server.url)<SlideChallenge>('POST', '/captcha/slide/challenge', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { ...answer.body, answerX: await slideAnswerOf(server, answer.body.id) };
};

/** A ticket for `scene` and `identity` ('' binds none), earned by solving the puzzle. */
export const solveSlideTicket = async (server: TestServer, scene: string, identity: string): Promise<string> => {
  const c = await drawSlide(server, { scene, identity });
  const verified = await client(server.url)<{ ticket: string }>('POST', '/captcha/slide/verify', {
    id: c.id,
    x: c.answerX,
    trajectory: humanDrag(c.answerX, c.answerX),
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return verified.body.ticket;
};
