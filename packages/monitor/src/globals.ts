/**
 * The one place the monitor reaches browser globals; each getter answers `undefined` where the global
 * is missing (Node, workers, tests), so nothing here runs at import time or throws outside a browser.
 */

type Global = Partial<Window & typeof globalThis>;

export const getGlobal = (): Global => globalThis as Global;
export const getWindow = (): Window | undefined => getGlobal().window;
export const getNavigator = (): Navigator | undefined => getGlobal().navigator;

/** The page's address, resolving relative request URLs against it. */
export const pageUrl = (): URL => new URL(getGlobal().location?.href ?? 'http://localhost/');

export const isHidden = (): boolean => getGlobal().document?.visibilityState === 'hidden';
