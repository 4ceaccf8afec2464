// One autocannon measurement, run by run.mjs in its own process pinned to the client core.
// argv[2] is a JSON job: { mode, url, connections, duration, token?, tokensFile?, login? }.
// Prints one JSON line with the figures.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const job = JSON.parse(process.argv[2]);
const base = { url: job.url, connections: job.connections, duration: job.duration, pipelining: 1 };

let rotated = 0;
let broken = 0;
const requestsFor = () => {
  switch (job.mode) {
    // The baseline gets the very request the profile read gets (same path and headers), so the two
    // differ only in what answers it.
    case 'bare':
    case 'profile':
      return [
        {
          method: 'GET',
          path: '/tiger/v3/web/accounts/profile',
          headers: { authorization: `Bearer ${job.token}`, 'auth-version': '1' },
        },
      ];
    case 'refresh': {
      // Rotation: each refresh token works once. Every connection takes a live token from the pool
      // for its next request and puts the successor from the answer back, so each connection walks
      // its own rotation chain (one request in flight per connection, pipelining 1).
      const pool = JSON.parse(readFileSync(job.tokensFile, 'utf8'));
      return [
        {
          method: 'PUT',
          path: '/tiger/v3/web/accounts/tokens/refresh',
          headers: { 'content-type': 'application/json', 'auth-version': '1' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ refresh_token: pool.pop() ?? 'pool-exhausted' }),
          }),
          onResponse: (status, body) => {
            if (status !== 200) {
              broken++;
              return;
            }
            pool.push(JSON.parse(body).refresh.token);
            rotated++;
          },
        },
      ];
    }
    case 'login':
      return [
        {
          method: 'POST',
          path: '/tiger/v3/web/accounts/login',
          headers: { 'content-type': 'application/json', 'auth-version': '1' },
          body: JSON.stringify(job.login),
        },
      ];
    default:
      throw new Error(`unknown mode ${job.mode}`);
  }
};

const result = await autocannon({ ...base, requests: requestsFor() });
const ok = result['2xx'];
process.stdout.write(
  `${JSON.stringify({
    mode: job.mode,
    connections: job.connections,
    seconds: result.duration,
    ok,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    ...(job.mode === 'refresh' ? { rotated, broken } : {}),
  })}\n`,
);
