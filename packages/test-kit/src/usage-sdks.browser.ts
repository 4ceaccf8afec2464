/** Browser-test fixture only: the usage SDKs as a site ships them, bundled by `bundleForBrowser`. */
export { createMonitor } from '@edupass/monitor';
export { createTracker } from '@edupass/tracker';
