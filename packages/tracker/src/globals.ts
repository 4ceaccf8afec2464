/**
 * The one place the tracker reaches browser globals. Each getter answers `undefined` where the global
 * is missing (Node, workers, tests), so nothing here runs at import time or throws outside a browser.
 */

type Global = Partial<Window & typeof globalThis>;
const root = (): Global => globalThis as Global;

export const getWindow = (): Window | undefined => root().window;
export const getDocument = (): Document | undefined => root().document;
export const getNavigator = (): Navigator | undefined => root().navigator;

export const getLocalStorage = (): Storage | undefined => {
  try {
    // Reading the property itself throws where storage is blocked (sandboxed frames, some privacy modes).
    return root().localStorage;
  } catch {
    return undefined;
  }
};

/** `true` unless the browser says it is offline. */
export const isOnline = (): boolean => getNavigator()?.onLine !== false;

export const isHidden = (): boolean => getDocument()?.visibilityState === 'hidden';

/** Adds a listener on `window` and returns its remover; a no-op outside a browser. */
export const listen = (target: EventTarget | undefined, type: string, fn: () => void): (() => void) => {
  target?.addEventListener(type, fn);
  return () => target?.removeEventListener(type, fn);
};
