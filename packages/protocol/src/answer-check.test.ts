import { describe, expect, it } from 'vitest';
import { userPageAnswer } from './admin-answers.ts';
import { answerProblem } from './answer-check.ts';
import { either, integer, list, NO_CONTENT, nullable, object, oneOf, text } from './answer-schema.ts';

const row = { id: 1, phone: null, email: 'a@b.c', username: null, nickname: null, avatar_url: '', role: 'user' };
const user = { ...row, blocked: false, blocked_at: null, created_at: 5, minor: false };

describe('answerProblem', () => {
  it('passes an answer of the schema, nulls where nullable, optional fields left out', () => {
    expect(answerProblem(userPageAnswer, { items: [user] })).toBeUndefined();
    expect(answerProblem(userPageAnswer, { items: [], next_cursor: 3 })).toBeUndefined();
    expect(answerProblem(NO_CONTENT, null)).toBeUndefined();
  });

  it('names the first field that is wrong: a type, a missing field, a value outside the list', () => {
    expect(answerProblem(userPageAnswer, { items: [{ ...user, phone: 5 }] })).toBe(
      'answer.items[0].phone must be string (is integer)',
    );
    const { role: _role, ...roleless } = user;
    expect(answerProblem(userPageAnswer, { items: [roleless] })).toBe('answer.items[0] must have the field role');
    expect(answerProblem(oneOf('a', 'b'), 'c')).toBe('answer must be one of "a", "b"');
    expect(answerProblem(list(integer()), [1, 1.5])).toBe('answer[1] must be integer (is number)');
    expect(answerProblem(nullable(text()), null)).toBeUndefined();
  });

  it('reads objects as open unless asked to hold them closed, as the test servers do', () => {
    const schema = object({ id: integer() });
    expect(answerProblem(schema, { id: 1, extra: true })).toBeUndefined();
    expect(answerProblem(schema, { id: 1, extra: true }, { closed: true })).toBe('answer.extra is not in the schema');
  });

  it('takes either shape of an either', () => {
    const schema = either(object({ a: integer() }), object({ b: text() }));
    expect(answerProblem(schema, { b: 'x' })).toBeUndefined();
    expect(answerProblem(schema, { a: 'x' })).toContain('answer.a must be integer');
  });
});
