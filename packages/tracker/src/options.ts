import type { TRACKER } from '@edupass/protocol';
import type { Clock, CookieJar, KeyValueStore, Logger, Timers, Transport } from './ports.ts';

/** What each consent allows (§4 "Consents gate each kind"). */
export type ConsentKind = (typeof TRACKER.consents)[number];
export type Consents = Partial<Record<ConsentKind, boolean>>;
/** Kinds an event can be tracked as; `user` and `device` gate the environment info instead. */
export type EventKind = 'event' | 'view' | 'app';

export interface TrackerOptions {
  /** The product code the server knows; without it the tracker warns 'Please set product code' and stays off. */
  productCode: string;
  /** Base URL of the EduPass server (`https://edupass.example.com`); without it the tracker warns 'Please set url' and stays off. */
  url: string;
  /**
   * Consents granted up front. Nothing is queued, sent or stored for a kind until it is granted.
   * @default {} (nothing granted; call `consent()` once the visitor agrees)
   */
  consent?: Consents;
  /** Marks events as coming from development (`m.tst`). @default false */
  isDev?: boolean;
  /** Marks the site as collecting click positions (`m.h`). @default false */
  heatmap?: boolean;
  /**
   * Most characters the unsent queue may take in storage; the oldest events are dropped past it.
   * @default 200000
   */
  storageLimit?: number;
  /**
   * Domain of the device-id cookie (`uid`, §9: 30 days, renewed at each `start()`). Set a shared parent
   * domain (`'.school.example'`) so every subdomain reports the same device.
   * @default the current host only
   */
  cookieDomain?: string;
  /** @default localStorage, or nothing (memory only) where it is unavailable */
  storage?: KeyValueStore;
  /**
   * Where the device id lives; where cookies do not work (blocked, file://, sandboxed frames) it is kept in
   * `storage` for 30 days instead, else in memory for the page.
   * @default document.cookie
   */
  cookies?: CookieJar;
  /** @default fetch, with navigator.sendBeacon at page end */
  transport?: Transport;
  /** @default setInterval */
  timers?: Timers;
  /** @default Date.now */
  clock?: Clock;
  /** @default console.warn, prefixed */
  logger?: Logger;
}
