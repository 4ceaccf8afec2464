/**
 * The one module that reaches browser globals. Each accessor answers `undefined` where the global is
 * missing (Node, workers, old browsers), so the SDK loads and runs everywhere: read as properties of
 * `globalThis`, which are undefined there rather than a ReferenceError.
 */

interface NetworkInformationLike {
  effectiveType?: string;
}

interface LockManagerLike {
  request<T>(name: string, options: { signal?: AbortSignal }, callback: () => Promise<T>): Promise<T>;
}

/** The browser globals, each possibly missing. */
const browser = globalThis as {
  document?: Document;
  navigator?: Navigator & { connection?: NetworkInformationLike };
  location?: Location;
};

export const browserDocument = (): Document | undefined => browser.document;

const browserNavigator = () => browser.navigator;

/** The connection's effective type ('4g', '3g', …), sent as the `Net` header where the browser tells it. */
export const effectiveConnectionType = (): string | undefined => browserNavigator()?.connection?.effectiveType;

/** Web Locks: in browsers only; Node 20 has no `navigator`. */
export const lockManager = (): LockManagerLike | undefined => {
  const locks = browserNavigator()?.locks as LockManagerLike | undefined;
  return typeof locks?.request === 'function' ? locks : undefined;
};

export const isSecurePage = (): boolean => browser.location?.protocol === 'https:';

/** A channel to the other tabs of this origin, or `undefined` where there is none. */
export const openChannel = (name: string): BroadcastChannel | undefined =>
  typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name);
