/** Links the server stores and pages show: only web addresses (never `javascript:`, `data:` or the like). */

/** An absolute http or https URL. */
export const isWebUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** An absolute http(s) URL, or a path on this site (`/…`, not the scheme-relative `//host…`). */
export const isWebUrlOrPath = (value: string) => /^\/(?![/\\])/.test(value) || isWebUrl(value);
