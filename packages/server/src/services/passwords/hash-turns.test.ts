/**
 * The turns of password hashes: one per core, and finished ones answered together while others are
 * still unfinished, at most `together` at a time; a lone hash at once; a failed hash like the others.
 * Hashes here are promises the test settles, so each step is seen as it happens; the real argon2id
 * goes through the same turns in passwords.test.ts and every sign-in test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RefusedForNow } from '../../errors.ts';
import { HASHES_BUSY_MESSAGE, type HashTurns, hashTurns } from './hash-turns.ts';

type ControlledHash = ReturnType<typeof controlledHash>;
type Asked = ReturnType<typeof ask>;

/** A hash the test finishes when it likes, and whether it has started. */
const controlledHash = () => {
  let finish!: (outcome: { value: string } | { error: Error }) => void;
  const hash = {
    started: false,
    finish: (outcome: { value: string } | { error: Error }) => finish(outcome),
    run: () => {
      hash.started = true;
      return new Promise<string>((resolve, reject) => {
        finish = (outcome) => ('error' in outcome ? reject(outcome.error) : resolve(outcome.value));
      });
    },
  };
  return hash;
};

/** Lets every promise chain and immediate that is ready run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Asks for `hash` in `turns` and records when it is answered. */
const ask = (turns: HashTurns, hash: ControlledHash) => {
  const asked = { answered: false, value: undefined as string | undefined, error: undefined as unknown };
  turns(hash.run).then(
    (value) => Object.assign(asked, { answered: true, value }),
    (error: unknown) => Object.assign(asked, { answered: true, error }),
  );
  return asked;
};

describe('hash turns', () => {
  it('a lone hash is answered as soon as it finishes', async () => {
    const turns = hashTurns(1, 4);
    const hash = controlledHash();
    const asked = ask(turns, hash);
    await settle();
    expect(hash.started).toBe(true);
    expect(asked.answered).toBe(false);
    hash.finish({ value: 'lone' });
    await settle();
    expect(asked).toMatchObject({ answered: true, value: 'lone' });
  });

  it('one hash per core: finished ones wait for the next, four are answered together, then the last two', async () => {
    const turns = hashTurns(1, 4);
    const hashes = Array.from({ length: 6 }, controlledHash);
    const asked = hashes.map((hash) => ask(turns, hash));
    await settle();
    expect(hashes.map((hash) => hash.started)).toEqual([true, false, false, false, false, false]);
    expect(turns.counts()).toEqual({ running: 1, waiting: 5 });

    for (let i = 0; i < 3; i++) {
      hashes[i]?.finish({ value: `h${i}` });
      await settle();
      // The core goes on with the next hash at once; the finished ones are not answered yet.
      expect(hashes[i + 1]?.started).toBe(true);
      expect(asked.map((a) => a.answered)).toEqual([false, false, false, false, false, false]);
    }
    hashes[3]?.finish({ value: 'h3' });
    await settle();
    expect(asked.map((a) => a.answered)).toEqual([true, true, true, true, false, false]);
    expect(asked.slice(0, 4).map((a) => a.value)).toEqual(['h0', 'h1', 'h2', 'h3']);

    hashes[4]?.finish({ value: 'h4' });
    await settle();
    expect(asked[4]?.answered).toBe(false);
    hashes[5]?.finish({ value: 'h5' });
    await settle();
    expect(asked.map((a) => a.answered)).toEqual([true, true, true, true, true, true]);
    expect(turns.counts()).toEqual({ running: 0, waiting: 0 });
  });

  it('a failed hash waits like the others and is answered with its own error; the others keep their values', async () => {
    const turns = hashTurns(1, 4);
    const hashes = Array.from({ length: 3 }, controlledHash);
    const asked = hashes.map((hash) => ask(turns, hash));
    await settle();
    const broken = new Error('not a PHC string');
    hashes[0]?.finish({ error: broken });
    await settle();
    expect(asked[0]?.answered).toBe(false);
    hashes[1]?.finish({ value: 'right' });
    await settle();
    hashes[2]?.finish({ value: 'wrong' });
    await settle();
    expect(asked.map(({ answered, value, error }) => ({ answered, value, error }))).toEqual([
      { answered: true, value: undefined, error: broken },
      { answered: true, value: 'right', error: undefined },
      { answered: true, value: 'wrong', error: undefined },
    ]);
  });

  it('a hash asked for while finished ones wait joins their group; none waits once nothing is unfinished', async () => {
    const turns = hashTurns(2, 4);
    const [first, second, late] = [controlledHash(), controlledHash(), controlledHash()];
    const asked = [ask(turns, first), ask(turns, second)];
    await settle();
    first.finish({ value: 'first' });
    await settle();
    expect(asked[0]?.answered).toBe(false);
    asked.push(ask(turns, late));
    await settle();
    expect(late.started).toBe(true);
    second.finish({ value: 'second' });
    await settle();
    expect(asked.map((a) => a.answered)).toEqual([false, false, false]);
    late.finish({ value: 'late' });
    await settle();
    expect(asked.map((a) => a.value)).toEqual(['first', 'second', 'late']);
  });

  it('whatever the cores, group size and order of asking and finishing: fewer than `together` wait, and none once every hash has finished', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.record({ askAt: fc.nat(6), failed: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
        async (cores, together, plan, picks) => {
          const turns = hashTurns(cores, together);
          const hashes = plan.map(() => controlledHash());
          const asked = new Map<number, Asked>();
          const finished = new Set<number>();
          const answered = (i: number) => asked.get(i)?.answered === true;
          for (let step = 0; finished.size < plan.length || ![...finished].every(answered); step++) {
            expect(step).toBeLessThan(100);
            plan.forEach(({ askAt }, i) => {
              if (askAt === step) asked.set(i, ask(turns, hashes[i] as ControlledHash));
            });
            await settle();
            const running = [...asked.keys()].filter((i) => hashes[i]?.started && !finished.has(i));
            const i = running[(picks[step % picks.length] ?? 0) % Math.max(running.length, 1)];
            if (i !== undefined) {
              finished.add(i);
              hashes[i]?.finish(plan[i]?.failed ? { error: new Error(`h${i}`) } : { value: `h${i}` });
            }
            await settle();
            expect([...finished].filter((f) => !answered(f)).length).toBeLessThan(together);
            if (finished.size === asked.size) expect([...finished].every(answered)).toBe(true);
          }
          for (const [i, { failed }] of plan.entries()) {
            expect(asked.get(i)).toMatchObject(failed ? { error: new Error(`h${i}`) } : { value: `h${i}` });
          }
          expect(turns.counts()).toEqual({ running: 0, waiting: 0 });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('a bounded queue', () => {
  it('past the waiting bound a new hash is refused at once with E_10 and the seconds to wait; none is lost', async () => {
    const turns = hashTurns(1, 4, 2);
    const hashes = [controlledHash(), controlledHash(), controlledHash()];
    const asked = hashes.map((hash) => ask(turns, hash));
    await settle();
    expect(turns.counts()).toEqual({ running: 1, waiting: 2 });
    const refused = controlledHash();
    const answer = ask(turns, refused);
    await settle();
    expect(refused.started).toBe(false);
    expect(answer.error).toBeInstanceOf(RefusedForNow);
    expect(answer.error).toMatchObject({ code: 'E_10', message: HASHES_BUSY_MESSAGE });
    expect((answer.error as RefusedForNow).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(() => turns.assertRoom()).toThrow(RefusedForNow);
    // The queue drains: every hash asked before the bound is answered, and there is room again.
    for (const [i, hash] of hashes.entries()) {
      await settle();
      hash.finish({ value: `h${i}` });
    }
    for (let i = 0; i < 5 && !asked.every((a) => a.answered); i++) await settle();
    expect(asked.map((a) => a.value)).toEqual(['h0', 'h1', 'h2']);
    expect(() => turns.assertRoom()).not.toThrow();
  });
});
