/**
 * The load of a district run, from the client's core: whole sign-ins (test kit sign-in-flows.ts) by
 * `concurrency` browsers at once for a while (closed loop), sign-ins started at a fixed rate (open
 * loop: the latency a school sees at a given share of what the server can do), refreshes by a
 * product's back end, and a burst of password sign-ins with a profile read beside it.
 */
import {
  type AppTokens,
  askWhileBusy,
  type Credentials,
  type FlowApp,
  refreshAtProduct,
  SIGN_IN_STEPS,
  signInAtProduct,
} from '@edupass/test-kit/sign-in-flows';
import { routes } from '../../packages/protocol/src/index.ts';
import { cpuSeconds } from '../server/measurement.mjs';

export type Flow = 'password' | 'card' | 'sms' | 'refresh';

export interface LoadResult {
  ok: number;
  failed: number;
  firstError?: string;
  /** Answers 503 (the hash queue full) a sign-in asked again after, as the web client does. */
  answers503: number;
  seconds: number;
  /** Each step's durations (ms); a refresh is one step. */
  steps: Record<string, number[]>;
  /** Whole flows' durations (ms). */
  flows: number[];
}

const newResult = (): LoadResult => ({ ok: 0, failed: 0, answers503: 0, seconds: 0, steps: {}, flows: [] });

/** One flow of `kind` by worker `worker`; refreshes walk the worker's own rotation chain. */
const oneFlow = async (
  server: string,
  app: FlowApp,
  kind: Flow,
  credentials: Credentials,
  chains: Map<number, string>,
  worker: number,
  result: LoadResult,
) => {
  const record = (step: string, ms: number) => {
    result.steps[step] ??= [];
    result.steps[step].push(ms);
  };
  if (kind === 'refresh') {
    const started = performance.now();
    const tokens: AppTokens = await refreshAtProduct(server, app, String(chains.get(worker)));
    chains.set(worker, String(tokens.refresh_token));
    record('refresh', performance.now() - started);
    return;
  }
  await signInAtProduct(
    server,
    app,
    credentials,
    (step, ms) => record(step, ms),
    () => result.answers503++,
  );
};

/** Each worker's first refresh token, from a card sign-in (cheap) of its own. */
export const refreshChains = async (server: string, app: FlowApp, cards: Credentials[], workers: number) => {
  const chains = new Map<number, string>();
  for (let worker = 0; worker < workers; worker++) {
    const tokens = await signInAtProduct(server, app, cards[worker % cards.length] as Credentials);
    chains.set(worker, String(tokens.refresh_token));
  }
  return chains;
};

/** `concurrency` workers, each running flows back to back for `seconds`; worker i signs in as person i. */
export const closedLoop = async (
  server: string,
  app: FlowApp,
  kind: Flow,
  people: Credentials[],
  concurrency: number,
  seconds: number,
  chains = new Map<number, string>(),
): Promise<LoadResult> => {
  const result = newResult();
  const started = performance.now();
  const until = started + seconds * 1000;
  const worker = async (index: number) => {
    while (performance.now() < until) {
      const flowStarted = performance.now();
      try {
        await oneFlow(server, app, kind, people[index % people.length] as Credentials, chains, index, result);
        result.ok++;
        result.flows.push(performance.now() - flowStarted);
      } catch (error) {
        result.failed++;
        result.firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
  result.seconds = (performance.now() - started) / 1000;
  return result;
};

/** Sign-ins started `rate` per second for `seconds` (however many are in flight), each as the next person. */
export const openLoop = async (
  server: string,
  app: FlowApp,
  kind: Flow,
  people: Credentials[],
  rate: number,
  seconds: number,
): Promise<LoadResult> => {
  const result = newResult();
  const started = performance.now();
  const count = Math.max(1, Math.round(rate * seconds));
  const flows: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const flowStarted = performance.now();
    flows.push(
      oneFlow(server, app, kind, people[i % people.length] as Credentials, new Map(), i, result).then(
        () => {
          result.ok++;
          result.flows.push(performance.now() - flowStarted);
        },
        (error) => {
          result.failed++;
          result.firstError ??= String(error);
        },
      ),
    );
  }
  await Promise.all(flows);
  result.seconds = (performance.now() - started) / 1000;
  return result;
};

const PROFILE_PATH = routes.getProfile.path;

/**
 * `count` password sign-ins (the sign-in call alone) started within `spreadSeconds`, each asking again
 * after `Retry-After` when the hash queue is full (as the web client does), while one reader reads
 * its profile back to back. Answers the sign-ins' outcome and the profile reads' durations.
 */
export const burst = async (
  server: string,
  people: Credentials[],
  profileToken: string,
  count: number,
  spreadSeconds: number,
) => {
  const profileReads: number[] = [];
  let busyAnswers = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  let reading = true;
  const reader = (async () => {
    while (reading) {
      const started = performance.now();
      const answer = await fetch(`${server}${PROFILE_PATH}`, { headers: { authorization: `Bearer ${profileToken}` } });
      await answer.arrayBuffer();
      profileReads.push(performance.now() - started);
    }
  })();
  const started = performance.now();
  const signIn = async (i: number) => {
    await new Promise((resolve) => setTimeout(resolve, (i / count) * spreadSeconds * 1000));
    const credentials = people[i % people.length] as Credentials;
    if (!('password' in credentials)) throw new Error('the burst signs in by password');
    // Asked again however often the queue is full: the burst measures when the last one is in.
    const answer = await askWhileBusy(
      () =>
        fetch(`${server}${routes.loginByPassword.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'auth-version': '2' },
          body: JSON.stringify(credentials.password),
        }),
      () => busyAnswers++,
      Number.POSITIVE_INFINITY,
    );
    const body = await answer.text();
    if (answer.status !== 200) {
      failed++;
      firstFailure ??= `${answer.status} ${body.slice(0, 200)}`;
    }
  };
  await Promise.all(Array.from({ length: count }, (_, i) => signIn(i)));
  const allSignedInSeconds = (performance.now() - started) / 1000;
  reading = false;
  await reader;
  return { allSignedInSeconds, busyAnswers, failed, firstFailure, profileReads };
};

/**
 * The server's CPU per step of a sign-in: `flows` sign-ins one after another, nothing else in
 * flight, so what the server process spends between a step's request and its answer is that step's
 * (work it does after answering falls to the next step). /proc counts in ticks of 10 ms: each step's
 * mean is exact only over many flows. One at a time costs more than the closed loop's four at once (no
 * answers and log lines written together): the shares are what to read.
 */
export const stepCpu = async (
  server: string,
  app: FlowApp,
  people: Credentials[],
  flows: number,
  serverPid: number,
): Promise<Record<string, number>> => {
  const seconds: Record<string, number> = {};
  for (let i = 0; i < flows; i++) {
    let before = cpuSeconds(serverPid);
    await signInAtProduct(server, app, people[i % people.length] as Credentials, (step) => {
      const now = cpuSeconds(serverPid);
      seconds[step] = (seconds[step] ?? 0) + now - before;
      before = now;
    });
  }
  return Object.fromEntries(Object.entries(seconds).map(([step, s]) => [step, (s * 1000) / flows]));
};

/** The step names in the order a sign-in takes them. */
export const STEP_ORDER = [...SIGN_IN_STEPS, 'refresh'];
