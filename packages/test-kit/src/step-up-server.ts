/**
 * A test server for the step-up rules: a step-up window of `window` seconds on a clock that `later()`
 * moves past it (every session's sign-in is then an old proof), and what the dev outbox holds for an
 * address (the codes and the notices that tell of a change).
 */
import type { Config } from '../../server/src/config/config.ts';
import { useTestServer } from './harness.ts';

/** A row of `GET /dev/outbox`; a notice has the code ''. */
export interface OutboxRow {
  to: string;
  channel: string;
  text: string;
  code: string;
  sent_at: number;
}

/** A server clock (`now`) for a step-up window of `window` seconds, which `later()` moves past the window. */
export const stepUpClock = (window: number) => {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    later: () => {
      offset += (window + 1) * 1000;
    },
  };
};

export const useStepUpServer = (window: number, overrides: Partial<Config> = {}) => {
  const { now, later } = stepUpClock(window);
  const test = useTestServer({ stepUpSeconds: window, ...overrides }, { now });
  /** What was sent to a phone or address, newest first. */
  const outbox = async (to: string) =>
    (await test.call<OutboxRow[]>('GET', `/dev/outbox?to=${encodeURIComponent(to)}`)).body;
  return { ...test, outbox, later };
};
