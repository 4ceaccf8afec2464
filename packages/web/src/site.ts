/**
 * The site's name and logo, as the server wrote them into the page (SITE_NAME, SITE_LOGO_URL;
 * packages/server/src/http/web-page.ts). A page served without them (vite's dev server) shows the
 * product's own.
 */
export interface Site {
  name: string;
  /** The configured logo's address; undefined for the product's own logo. */
  logoUrl: string | undefined;
}

const meta = (name: string): string =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? '';

export const site: Site = { name: meta('application-name') || 'EduPass', logoUrl: meta('edupass:logo') || undefined };
