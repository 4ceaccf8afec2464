/**
 * The console's routes live in the URL hash (`/console.html#/users/12`), so the page works from any
 * static server with no fallback rule, and never collides with the end-user client's routes.
 */
import { mayCall, type OperatorDuty, type OperatorRouteName } from '@edupass/protocol';
import { createStore, useStore } from '@edupass/ui-kit/store.ts';

/** The console's sections, in the order of its navigation; each has a `nav.<name>` text. */
export const SECTIONS = [
  'users',
  'schools',
  'connectors',
  'teachers',
  'rights',
  'agreements',
  'captcha',
  'oauth',
  'keys',
  'webhooks',
  'applications',
  'usage',
  'monitor',
  'audit',
] as const;
export type Section = (typeof SECTIONS)[number];

/** The calls each section's screen opens with: an operator sees the sections whose duty they hold. */
const SECTION_CALLS: Record<Section, OperatorRouteName[]> = {
  users: ['searchUsers'],
  schools: ['listSchools'],
  connectors: ['listSchoolConnectors'],
  teachers: ['listTeacherRequests'],
  rights: ['listDataRequests', 'listStaffAccess'],
  agreements: ['listAllAgreements'],
  captcha: ['getCaptchaSettings'],
  oauth: ['getOauthSettings'],
  keys: ['listSigningKeys'],
  webhooks: ['listWebhooks'],
  applications: ['listApplications'],
  usage: ['usageEvents'],
  monitor: ['monitorErrors'],
  audit: ['listAudit'],
};

/** The sections an operator with `duties` may use, in the navigation's order. */
export const sectionsFor = (duties: readonly OperatorDuty[]): Section[] =>
  SECTIONS.filter((section) => SECTION_CALLS[section].some((name) => mayCall(duties, name)));
/** The sections whose screen takes no parameter (all but the user list). */
export type PlainSection = Exclude<Section, 'users'>;

export type ConsoleRoute = { name: 'users'; q: string } | { name: 'user'; id: number } | { name: PlainSection };

export const parseRoute = (hash: string): ConsoleRoute => {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const parts = path.split('/').filter(Boolean);
  const [first, second] = parts;
  if (first === 'users' && second && /^\d{1,15}$/.test(second)) return { name: 'user', id: Number(second) };
  const section = SECTIONS.find((name) => name === first);
  if (section !== undefined && section !== 'users') return { name: section };
  return { name: 'users', q: new URLSearchParams(search).get('q') ?? '' };
};

export const hrefOf = (route: ConsoleRoute): string => {
  switch (route.name) {
    case 'users':
      return route.q ? `#/users?${new URLSearchParams({ q: route.q })}` : '#/users';
    case 'user':
      return `#/users/${route.id}`;
    default:
      return `#/${route.name}`;
  }
};

export const sectionOf = (route: ConsoleRoute): Section => (route.name === 'user' ? 'users' : route.name);

export const navigate = (route: ConsoleRoute) => {
  window.location.hash = hrefOf(route);
};

const readHash = () => window.location.hash;
const follow = () => hash.set(readHash());
/** The hash, followed while a component reads it (and read afresh when the first one arrives). */
const hash = createStore(readHash, {
  onWatch: () => {
    follow();
    window.addEventListener('hashchange', follow);
  },
  onUnwatch: () => window.removeEventListener('hashchange', follow),
});

export const useConsoleRoute = (): ConsoleRoute => parseRoute(useStore(hash));
