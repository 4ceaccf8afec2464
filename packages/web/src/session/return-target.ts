/**
 * Where the user goes after signing in: when an application sent them, an OpenID Connect interaction
 * (`?interaction=`) or an allow-listed return address (`?redirect=`); when they opened a page of the
 * account centre signed out (a deep link), that page. Kept in this tab's sessionStorage from the first
 * page load, so it survives the WeChat / QQ round trip, the second step and the agreements gate, and is
 * used once.
 */
import { INTERACTION_PARAM, type InteractionApp, RETURN_PARAM } from '@edupass/protocol';

/** An application as the sign-in screens name it ("Sign in to …"). */
export type ReturnApp = Pick<InteractionApp, 'name' | 'logo_url'>;

export type ReturnTarget =
  /** `firstParty`: the interaction's application, once read and found first party (noteFirstPartyApp). */
  | { kind: 'interaction'; uid: string; firstParty?: ReturnApp }
  | { kind: 'redirect'; url: string; clientId?: string }
  | { kind: 'path'; path: string };

/** A path of this web client: one slash, never `//host` (which a browser reads as another site). */
const isLocalPath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');

const KEY = 'edupass.return';

const isApp = (value: Partial<ReturnApp> | undefined): value is ReturnApp =>
  typeof value?.name === 'string' && typeof value.logo_url === 'string';

const store = (target: ReturnTarget | undefined) => {
  try {
    if (target === undefined) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify(target));
  } catch {
    // Storage off: the user lands on the account centre instead.
  }
};

export const pendingReturn = (): ReturnTarget | undefined => {
  try {
    const raw = sessionStorage.getItem(KEY);
    const value = raw
      ? (JSON.parse(raw) as Partial<{
          kind: string;
          uid: string;
          firstParty: Partial<ReturnApp>;
          url: string;
          clientId: string;
          path: string;
        }>)
      : undefined;
    if (value?.kind === 'interaction' && typeof value.uid === 'string') {
      const app = value.firstParty;
      return { kind: 'interaction', uid: value.uid, ...(isApp(app) ? { firstParty: app } : {}) };
    }
    if (value?.kind === 'redirect' && typeof value.url === 'string') {
      return {
        kind: 'redirect',
        url: value.url,
        ...(typeof value.clientId === 'string' ? { clientId: value.clientId } : {}),
      };
    }
    if (value?.kind === 'path' && typeof value.path === 'string' && isLocalPath(value.path)) {
      return { kind: 'path', path: value.path };
    }
  } catch {
    // Unreadable: as if none.
  }
  return undefined;
};

export const clearReturn = (): void => store(undefined);

/**
 * Keeps with the waiting interaction `uid` that its application is first party, as read
 * (session/return-app.ts): such an application is never asked consent, so after sign-in the interaction
 * is completed without being read again, on whichever page of this tab the sign-in ends (a card's
 * `/badge`, the return from WeChat, QQ or a school's sign-in, each a page loaded since).
 */
export const noteFirstPartyApp = (uid: string, app: ReturnApp): void => {
  const target = pendingReturn();
  if (target?.kind !== 'interaction' || target.uid !== uid) return;
  store({ ...target, firstParty: { name: app.name, logo_url: app.logo_url } });
};

/**
 * On page load: a target in the address is kept; so is a signed-out visitor's deep link (`deepLink`,
 * a page only users see); opening the sign-in screen without either forgets an older one (the return
 * from WeChat or QQ, `?oauth=`, or from a school's sign-in, `?school=`, keeps it).
 */
export const captureReturn = (path: string, query: URLSearchParams, deepLink: boolean): void => {
  const uid = query.get(INTERACTION_PARAM);
  const url = query.get(RETURN_PARAM);
  // The application the address belongs to, when it says (`client_id`): it is named, not guessed by origin.
  const clientId = query.get('client_id');
  const search = query.toString();
  if (uid) store({ kind: 'interaction', uid });
  else if (url) store({ kind: 'redirect', url, ...(clientId ? { clientId } : {}) });
  else if (deepLink && isLocalPath(path)) store({ kind: 'path', path: search ? `${path}?${search}` : path });
  else if ((path === '/' || path === '/sign-in') && !query.has('oauth') && !query.has('school')) store(undefined);
};

/** Where a fresh sign-in lands in this web client: the deep link it was opened at (used once), else the account. */
export const landingPath = (): string => {
  const target = pendingReturn();
  if (target?.kind !== 'path') return '/account';
  clearReturn();
  return target.path;
};

/** Whether an application waits for the user (an interaction or a return address, not a page of ours). */
export const pendingAppReturn = (): Exclude<ReturnTarget, { kind: 'path' }> | undefined => {
  const target = pendingReturn();
  return target?.kind === 'path' ? undefined : target;
};

/** What `checkReturn` is asked about a return address: it, and the application it names. */
export const returnCheckOf = (target: { url: string; clientId?: string }) => ({
  redirect: target.url,
  ...(target.clientId ? { client_id: target.clientId } : {}),
});
