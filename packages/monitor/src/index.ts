export { createMonitor, type Monitor } from './monitor.ts';
export type { BeaconSender, MonitorOptions } from './options.ts';
