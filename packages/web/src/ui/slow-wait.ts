/**
 * How long a wait for the server goes unremarked before the form says it is slow (slow-notice.tsx):
 * most answers come well within it, the request time-out is 20 s. A module of its own, free of the
 * DOM, so the browser tests can move the page's clock past it.
 */
export const SLOW_MS = 5000;
