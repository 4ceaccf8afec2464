/**
 * The requests the bench times, each as the console sends it (an operator's bearer token): reads
 * first, then the deletions and removals, which change the data. `run(site, i)` makes the i-th
 * request (0 is the warm-up) against one database's server and throws on any answer but a success.
 */
import { type Layout, nicknameOf, PHONE_PREFIXES, phoneOf, usernameOf } from './layout.ts';
import { RARE_ACTION } from './seed-logs.ts';
import type { Targets } from './targets.ts';

/** One database's server as the paths see it. */
export interface Site {
  url: string;
  /** The database the server runs on (the sweep's backlog is measured on it directly). */
  databaseUrl: string;
  token: string;
  layout: Layout;
  targets: Targets;
}

export interface PathSpec {
  name: string;
  /** The absolute target at the large size, in ms (median), where the product sets one. */
  targetMs?: number;
  run(site: Site, i: number): Promise<void>;
}

const call = async (site: Site, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${site.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${site.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text.slice(0, 300)}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
};

const get = (path: string) => (site: Site) => call(site, 'GET', path).then(() => undefined);

/**
 * An adult account present in both databases (ids are laid out alike from 1; the small database's
 * adults are teachers or guardians in the large one), with a username and a nickname, and none of
 * the accounts the bench deletes.
 */
export const searchedAccount = (small: Layout, avoid: Set<number>) => {
  for (let id = small.adults.from; ; id++) if (id % 15 === 0 && !avoid.has(id)) return id;
};

/** The export, from the request to its zip being ready (the worker is woken by the request). */
const exportOf = async (site: Site, i: number) => {
  const id = site.targets.exported[i] as number;
  await call(site, 'POST', `/admin/users/${id}/exports`, { lang: 'zh-CN' });
  for (;;) {
    const answer = (await call(site, 'GET', `/admin/users/${id}/exports`)) as { exports: { state: string }[] };
    const state = answer.exports[0]?.state;
    if (state === 'ready') return;
    if (state === 'failed') throw new Error(`the export of user ${id} failed`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const SEARCH_TARGET_MS = 50;
const DELETION_TARGET_MS = 1000;
const REPORT_TARGET_MS = 1000;
/** The console's page of schools and of teacher requests. */
const CONSOLE_PAGE = 50;

/**
 * `schools`: how many schools the small size has. The school list asks for a page both sizes fill (the
 * console's 50, or fewer where the small size has fewer), so both answer the same number of rows.
 */
export const pathsFor = (searched: number, year: number, schools: number): PathSpec[] => {
  const schoolPage = Math.min(CONSOLE_PAGE, schools);
  const search = (name: string, q: string): PathSpec => ({
    name: `user search: ${name}`,
    targetMs: SEARCH_TARGET_MS,
    run: get(`/admin/users?q=${encodeURIComponent(q)}`),
  });
  return [
    // Twenty rows at any size: the audit filter's list of operators.
    { name: 'operator list', run: get('/admin/operators') },
    search('phone prefix', `${PHONE_PREFIXES[5]}1`),
    search('nickname', nicknameOf(searched)),
    search('username', usernameOf(searched)),
    search('full phone', phoneOf(searched)),
    search('no match', 'zqxjv'),
    { name: 'yearly report', targetMs: REPORT_TARGET_MS, run: get(`/admin/reports/yearly?year=${year}`) },
    { name: 'data export of one user (until ready)', run: exportOf },
    {
      name: `teacher approvals (a page of ${CONSOLE_PAGE})`,
      run: get(`/admin/edu/teacher-requests?limit=${CONSOLE_PAGE}`),
    },
    { name: `audit: ${RARE_ACTION}`, run: get(`/admin/audit?action=${RARE_ACTION}`) },
    { name: `school list (a page of ${schoolPage})`, run: get(`/admin/edu/schools?limit=${schoolPage}`) },
    {
      name: 'remove an OIDC application',
      run: (site, i) => call(site, 'POST', `/admin/applications/${site.targets.applications[i]}/remove`).then(() => {}),
    },
    {
      name: 'delete an adult',
      targetMs: DELETION_TARGET_MS,
      run: (site, i) => call(site, 'DELETE', `/admin/users/${site.targets.adults[i]}`).then(() => {}),
    },
    {
      name: 'delete a pupil',
      targetMs: DELETION_TARGET_MS,
      run: (site, i) => call(site, 'DELETE', `/admin/users/${site.targets.pupils[i]}`).then(() => {}),
    },
  ];
};
