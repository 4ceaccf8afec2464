export type { ConsentKind, Consents, EventKind, TrackerOptions } from './options.ts';
export type { Clock, CookieJar, KeyValueStore, Logger, Timers, Transport } from './ports.ts';
export { createTracker, type Tracker } from './tracker.ts';
