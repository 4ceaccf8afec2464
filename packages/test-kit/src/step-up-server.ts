/**
 * A test server for the step-up rules: a step-up window of `window` seconds on a clock that `later()`
 * moves past it (every session's sign-in is then an old proof), and what the dev outbox holds for an
 * address (the codes and the notices that tell of a change).
 */
import type { Config } from '../../server/src/config.ts';
import { useTestServer } from './harness.ts';

/** A row of `GET /dev/outbox`; a notice has the code ''. */
export interface OutboxRow {
  to: string;
  channel: string;
  text: string;
  code: string;
  sent_at: number;
}

export const useStepUpServer = (window: number, overrides: Partial<Config> = {}) => {
  let offset = 0;
  const test = useTestServer({ stepUpSeconds: window, ...overrides }, { now: () => Date.now() + offset });
  /** What was sent to a phone or address, newest first. */
  const outbox = async (to: string) =>
    (await test.call<OutboxRow[]>('GET', `/dev/outbox?to=${encodeURIComponent(to)}`)).body;
  const later = () => {
    offset += (window + 1) * 1000;
  };
  return { ...test, outbox, later };
};
