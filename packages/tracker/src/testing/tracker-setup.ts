import type { TrackerOptions } from '../options.ts';
import { createTracker } from '../tracker.ts';
import { fakeTransport, manualTime, memoryStore, recordingLogger } from './fakes.ts';

export const ALL = { event: true, view: true, user: true, app: true, device: true };

export const setup = (extra: Partial<TrackerOptions> = {}, shared = memoryStore(), time = manualTime()) => {
  const net = fakeTransport();
  const log = recordingLogger();
  const tracker = createTracker({
    productCode: 'edupass',
    url: 'https://collector.test/',
    consent: ALL,
    storage: shared.store,
    transport: net.transport,
    timers: time.timers,
    clock: time.clock,
    logger: log.logger,
    ...extra,
  });
  return { tracker, time, net, log, storage: shared };
};
