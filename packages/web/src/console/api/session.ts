/**
 * The operator's sign-in: a token set from the account API, kept in sessionStorage (this tab only,
 * gone when it closes) and sent as `Authorization: Bearer`. A subscribable store for React.
 */
import { ACCOUNTS_BASE, TOKENS_BASE } from '@edupass/protocol';
import { ConsoleApiError, errorFromAnswer } from './console-error.ts';

export interface ConsoleSession {
  access: string;
  refresh: string | undefined;
  userId: number;
  nickname: string;
}

const STORAGE_KEY = 'edupass.console.session';
const PID = import.meta.env.VITE_EDUPASS_PID ?? 'edupass';

const read = (): ConsoleSession | undefined => {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const value = JSON.parse(raw) as Partial<ConsoleSession>;
    return typeof value.access === 'string' && typeof value.userId === 'number'
      ? { access: value.access, refresh: value.refresh, userId: value.userId, nickname: value.nickname ?? '' }
      : undefined;
  } catch {
    return undefined;
  }
};

let current: ConsoleSession | undefined = read();
/** Why the last session went: the operator signed out, or the server ended it (blocked, revoked, expired). */
let lastEnd: 'signed-out' | 'ended' | undefined;
export const lastSessionEnd = () => lastEnd;
const listeners = new Set<() => void>();

const store = (next: ConsoleSession | undefined) => {
  current = next;
  try {
    if (next) window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    else window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Kept in memory only.
  }
  for (const listener of [...listeners]) listener();
};

export const getConsoleSession = () => current;
export const subscribeSession = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const postJson = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ConsoleApiError(0, 'NETWORK', 'The server could not be reached.');
  }
  const answer: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw errorFromAnswer(response.status, answer);
  return answer;
};

/** `{access: {token}, refresh: {token}}` (token set) or a bare token string. */
const tokensOf = (token: unknown): { access: string; refresh: string | undefined } | undefined => {
  if (typeof token === 'string') return { access: token, refresh: undefined };
  const set = token as { access?: { token?: unknown }; refresh?: { token?: unknown } } | null;
  const access = set?.access?.token;
  const refresh = set?.refresh?.token;
  return typeof access === 'string'
    ? { access, refresh: typeof refresh === 'string' ? refresh : undefined }
    : undefined;
};

/** Signs in at an account route and keeps the session it answers. */
export const signInAt = async (path: string, body: Record<string, unknown>): Promise<void> => {
  const answer = (await postJson('POST', path, body, { 'Auth-Version': '1' })) as
    | { user_info?: { id?: unknown; nickname?: unknown }; auth?: { token?: unknown } }
    | undefined;
  const tokens = tokensOf(answer?.auth?.token);
  const id = answer?.user_info?.id;
  if (!tokens || typeof id !== 'number') throw new ConsoleApiError(200, 'BAD_ANSWER', 'Unexpected sign-in answer.');
  const nickname = typeof answer?.user_info?.nickname === 'string' ? answer.user_info.nickname : '';
  store({ ...tokens, userId: id, nickname });
};

export const signInOperator = (identity: string, password: string) =>
  signInAt(`${ACCOUNTS_BASE}/login`, { identity, password, pid: PID });

let refreshing: Promise<boolean> | undefined;

/** Exchanges the refresh token for a new set; false when there is none or it is refused. */
export const refreshSession = (): Promise<boolean> => {
  const held = current;
  if (!held?.refresh) return Promise.resolve(false);
  refreshing ??= postJson('PUT', `${TOKENS_BASE}/refresh`, { refresh_token: held.refresh })
    .then((answer) => {
      const tokens = tokensOf(answer);
      if (!tokens) return false;
      store({ ...held, ...tokens, refresh: tokens.refresh ?? held.refresh });
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
};

export const signOutOperator = async (): Promise<void> => {
  const held = current;
  lastEnd = 'signed-out';
  store(undefined);
  if (held) {
    await fetch(TOKENS_BASE, { method: 'DELETE', headers: { Authorization: `Bearer ${held.access}` } }).catch(() => {});
  }
};

/** Forgets the session without telling the server (it already ended). */
export const dropSession = () => {
  lastEnd = 'ended';
  store(undefined);
};
