// How the bench writes its figures: ratios as 0.00×, counts with thousands separators, and one
// measurement's result as a line of the log.
import { LOGIN_CONNECTIONS } from './settings.mjs';

export const x = (v) => `${v.toFixed(2)}×`;
export const n = (v) => Math.round(v).toLocaleString('en-US');

export const describe = (name, r) =>
  (name === 'argon2'
    ? `${r.rate.toFixed(1)} checks/s (${LOGIN_CONNECTIONS} in flight)`
    : `${Math.round(r.rps).toLocaleString('en-US')} req/s, p99 ${r.p99} ms`) +
  `, server CPU ${Math.round(r.cpuUsPerRequest).toLocaleString('en-US')} µs/req` +
  (r.mainThreadUsPerRequest === undefined
    ? ''
    : ` (main thread ${n(r.mainThreadUsPerRequest)}, other threads ${n(r.otherThreadsUsPerRequest)})`) +
  (r.non2xx || r.errors || r.timeouts ? ` (non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts})` : '');
