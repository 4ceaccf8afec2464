import { TRACKER } from '@edupass/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { beaconBody, parseBeacon, parseReport } from './usage-parse.ts';

/** Parses, answering the value or the catalogue code of the refusal; anything else thrown fails the test. */
const outcome = (run: () => unknown): unknown => {
  try {
    return run();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
};

const event = fc.record({
  e: fc.string({ minLength: 1, maxLength: 40 }),
  i: fc.uuid(),
  t: fc.integer({ min: 0, max: 4_000_000_000 }),
  d: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  dur: fc.option(fc.integer({ min: 0, max: 86_400_000 }), { nil: undefined }),
});

describe('parseReport', () => {
  it('any JSON at all is either a checked batch or a 400 (E_1), never a crash', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = outcome(() => parseReport(JSON.stringify(value) ?? '', 'edupass'));
        expect(result === 'E_1' || typeof result === 'object').toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('any text at all is either a checked batch or a 400 (E_1)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        expect(['E_1']).toContain(outcome(() => parseReport(text, 'edupass')));
      }),
      { numRuns: 300 },
    );
  });

  it('every batch the tracker can send (within its limits) is taken as sent', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 20 }), (events) => {
        const b = events.map(({ dur, ...rest }) => (dur === undefined ? rest : { ...rest, dur }));
        const body = { type: 0, alg: '', data: { m: { d: 1, p: 'edupass', tst: 0, h: 0 }, e: {}, b } };
        const raw = JSON.stringify(body);
        const fits =
          raw.length * 3 <= TRACKER.requestSizeLimit &&
          b.every((x) => JSON.stringify(x).length * 3 <= TRACKER.eventSizeLimit);
        fc.pre(fits);
        const checked = parseReport(raw, 'edupass');
        expect(checked.payload).toEqual(JSON.parse(raw));
        expect(checked.dataJson).toEqual(b.map((x) => JSON.stringify(x.d)));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an event exactly when JSON.stringify writes it longer than the event size limit allows', () => {
    const longest = Math.floor(TRACKER.eventSizeLimit / TRACKER.sizeFactor);
    const written = fc.record({
      // Keys JSON writes escaped (quotes, backslashes) or as they are (emoji, line separators).
      e: fc.string({ minLength: 1, maxLength: 40, unit: fc.constantFrom('a', '"', '\\', 'é', '😀', '\u2028') }),
      i: fc.uuid(),
      t: fc.integer({ min: 0, max: 9_999_999_999 }),
      d: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
      dur: fc.option(fc.integer({ min: 0, max: 86_400_000 }), { nil: undefined }),
      // Numbers sent in exponent form, which JSON.stringify writes longer or shorter.
      n: fc.integer({ min: 0, max: 10 ** 15 }),
    });
    fc.assert(
      fc.property(written, ({ e, i, t, d, dur, n }) => {
        const sized = (pad: number) => {
          const event = { e, i, t, d: { ...d, n, pad: 'x'.repeat(pad) }, ...(dur === undefined ? {} : { dur }) };
          const body = { type: 0, alg: '', data: { m: { d: 1, p: 'edupass' }, b: [event] } };
          const raw = JSON.stringify(body).replace(`"n":${n}`, `"n":${n.toExponential()}`);
          return { length: JSON.stringify(event).length, raw };
        };
        const pad = longest - sized(0).length;
        fc.pre(pad >= 0);
        expect(sized(pad).length).toBe(longest);
        expect(typeof outcome(() => parseReport(sized(pad).raw, 'edupass'))).toBe('object');
        expect(outcome(() => parseReport(sized(pad + 1).raw, 'edupass'))).toBe('E_1');
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseBeacon', () => {
  it('any query-string body is either a checked beacon or a 400 (E_1)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('k', 'p', 'pg', 't', 'n', 'v', 'u', 'm', 'c', 'b', 's', '__proto__', 'constructor'),
          fc.string(),
        ),
        (fields) => {
          const body = new URLSearchParams(fields).toString();
          const result = outcome(() => parseBeacon(beaconBody(body)));
          expect(result === 'E_1' || (typeof result === 'object' && result !== null && 'k' in result)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
