// What the bench measures, in order: each step (one client run against one server, with the server's
// CPU per request), the warm-up, the profile read and the login in pairs beside their baselines, the
// rounds of the longer measurements, and SQLite ingestion (bench/usage/ingest.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, x } from './format.mjs';
import { withCpu } from './measurement.mjs';
import { runJson, runJsonUnpinned } from './processes.mjs';
import {
  CLIENT_CORE,
  CONNECTIONS,
  DURATION,
  here,
  INGEST_EVENTS,
  LOG_LEVEL,
  LOGIN_CONNECTIONS,
  LOGIN_SLICE,
  log,
  PAIRS,
  REFRESH_SESSIONS,
  RUNS,
  root,
  SERVER_CORE,
  SLICE,
} from './settings.mjs';
import { refreshTokensOf } from './setup.mjs';

/**
 * Every measurement by name, each a function of its duration in seconds: `servers` are the running
 * children (edupass, cheap, bare, quiet), `user` what the sign-ups answered on the two EduPass servers.
 */
export const measurementSteps = ({ servers, outdir, scratch, user, cheapUser }) => {
  const { edupass, cheap, bare, quiet } = servers;
  /** Fresh sessions for the refresh measurement: one refresh token per chain. */
  const freshRefreshTokens = async () => {
    const tokens = await refreshTokensOf(user.login, REFRESH_SESSIONS);
    const file = join(scratch, 'refresh-tokens.json');
    writeFileSync(file, JSON.stringify(tokens));
    return file;
  };
  const clientScript = join(here, 'client.mjs');
  const measure = (job) => runJson(CLIENT_CORE, ['node', clientScript, JSON.stringify(job)]);
  const token = user.accessToken;
  return {
    bare: (duration) =>
      withCpu(bare.child.pid, () =>
        measure({ mode: 'bare', url: bare.url, connections: CONNECTIONS, duration, token }),
      ),
    quiet: (duration) =>
      withCpu(quiet.child.pid, () =>
        measure({ mode: 'bare', url: quiet.url, connections: CONNECTIONS, duration, token }),
      ),
    profile: (duration) =>
      withCpu(edupass.child.pid, () =>
        measure({ mode: 'profile', url: edupass.url, connections: CONNECTIONS, duration, token }),
      ),
    refresh: async (duration) => {
      const tokensFile = await freshRefreshTokens();
      return withCpu(edupass.child.pid, () =>
        measure({ mode: 'refresh', url: edupass.url, connections: CONNECTIONS, duration, tokensFile }),
      );
    },
    login: (duration) =>
      withCpu(edupass.child.pid, () =>
        measure({ mode: 'login', url: edupass.url, connections: LOGIN_CONNECTIONS, duration, login: user.loginBody }),
      ),
    argon2: (duration) =>
      runJson(SERVER_CORE, ['node', join(outdir, 'argon2.mjs'), String(duration), String(LOGIN_CONNECTIONS)]),
    cheap: (duration) =>
      withCpu(cheap.child.pid, () =>
        measure({
          mode: 'login',
          url: cheap.url,
          connections: LOGIN_CONNECTIONS,
          duration,
          login: cheapUser.loginBody,
        }),
      ),
  };
};

/** One round of every step, 1 s each, not recorded. */
export const warmUp = async (steps) => {
  log('warm-up round (1 s each, not recorded)…');
  for (const [name, step] of Object.entries(steps))
    await step(1).then((r) => log(`  warm-up ${name}: ${describe(name, r)}`));
};

/**
 * PAIRS pairs, each taken back to back: the members in the order `members(i)` gives, `slice` seconds
 * each, then the pair's ratios (`ratiosOf`) added and its line logged.
 */
const takePairs = async (steps, members, slice, ratiosOf, line) => {
  const pairs = [];
  for (let i = 1; i <= PAIRS; i++) {
    const pair = {};
    for (const name of members(i)) pair[name] = await steps[name](slice);
    Object.assign(pair, ratiosOf(pair));
    log(line(i, pair));
    pairs.push(pair);
  }
  return pairs;
};

// Profile read against bare in many short pairs, each taken back to back. Other machines' load on a
// shared host comes and goes within seconds, so two measurements far apart can differ by 2×; a pair
// sees nearly the same machine, and the median of many pairs shrugs off the pairs that did not. The
// order alternates (bare first, then profile first) so neither always runs warmer. The bare handler
// that logs nothing is measured after each pair, for the ratio without the log.
export const takeProfilePairs = (steps) =>
  takePairs(
    steps,
    (i) => (i % 2 ? ['bare', 'profile', 'quiet'] : ['profile', 'bare', 'quiet']),
    SLICE,
    (pair) => ({
      ratios: { profileVsBare: pair.profile.rps / pair.bare.rps, profileVsQuiet: pair.profile.rps / pair.quiet.rps },
      cpuRatios: {
        profileVsBare: pair.bare.cpuUsPerRequest / pair.profile.cpuUsPerRequest,
        profileVsQuiet: pair.quiet.cpuUsPerRequest / pair.profile.cpuUsPerRequest,
      },
    }),
    (i, pair) =>
      `pair ${i}/${PAIRS}: bare ${describe('bare', pair.bare)}; profile ${describe('profile', pair.profile)}; ` +
      `ratio ${x(pair.ratios.profileVsBare)} (CPU ${x(pair.cpuRatios.profileVsBare)}); ` +
      `bare without log ${describe('bare', pair.quiet)}, CPU ratio ${x(pair.cpuRatios.profileVsQuiet)}`,
  );

// Login against the raw check in pairs too, for the same reason: the raw check's cost moved by a
// quarter between rounds a minute apart on this host. Slices are longer (a sign-in takes tens of ms).
export const takeLoginPairs = (steps) =>
  takePairs(
    steps,
    (i) => (i % 2 ? ['login', 'argon2'] : ['argon2', 'login']),
    LOGIN_SLICE,
    (pair) => ({
      ratios: { loginVsHash: pair.login.rps / pair.argon2.rate },
      cpuRatios: { loginVsHash: pair.argon2.cpuUsPerRequest / pair.login.cpuUsPerRequest },
    }),
    (i, pair) =>
      `login pair ${i}/${PAIRS}: login ${describe('login', pair.login)}; argon2 ${describe('argon2', pair.argon2)}; ` +
      `ratio ${x(pair.ratios.loginVsHash)} (CPU ${x(pair.cpuRatios.loginVsHash)})`,
  );

/** Rounds of the longer measurements, each with its own baseline taken beside it. */
export const measurementRounds = async (steps) => {
  const rounds = [];
  for (let round = 1; round <= RUNS; round++) {
    const results = {};
    for (const name of ['bare', 'refresh', 'cheap']) {
      results[name] = await steps[name](DURATION);
      log(`round ${round}/${RUNS} ${name.padEnd(7)} ${describe(name, results[name])}`);
    }
    results.ratios = { refreshVsBare: results.refresh.rps / results.bare.rps };
    // The same ratio from server CPU per request (what one core could do if it were all ours).
    results.cpuRatios = { refreshVsBare: results.bare.cpuUsPerRequest / results.refresh.cpuUsPerRequest };
    rounds.push(results);
  }
  return rounds;
};

/** SQLite ingestion beside its single-transaction ceiling (bench/usage/ingest.ts), logging as the server does. */
export const ingestion = (scratch) =>
  runJsonUnpinned(
    ['node', join(root, 'bench/usage/run.mjs'), 'ingest'],
    { EVENTS: String(INGEST_EVENTS), LOG_LEVEL, LOG_FILE: join(scratch, 'ingest.log') },
    'bench/usage ingest',
  );
