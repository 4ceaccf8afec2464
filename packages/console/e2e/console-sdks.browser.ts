/** Browser-test fixture only: the tracker and the monitor as a site ships them, bundled by `bundleForBrowser`. */
export { createMonitor } from '@edupass/monitor';
export { createTracker } from '@edupass/tracker';
