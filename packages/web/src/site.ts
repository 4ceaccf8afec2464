/**
 * The site's name and logo, as the server wrote them into the page (SITE_NAME, SITE_LOGO_URL;
 * packages/server/src/http/web-page.ts), and the days a deleted account waits before it is erased
 * (ACCOUNT_DELETION_GRACE_DAYS). A page served without them (vite's dev server) shows the product's
 * own name and logo, and no day.
 */
export interface Site {
  name: string;
  /** The configured logo's address; undefined for the product's own logo. */
  logoUrl: string | undefined;
  /** Days between a deletion and the erasure (0: at once); undefined when the page does not say. */
  deletionGraceDays: number | undefined;
}

const meta = (name: string): string =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? '';

const days = (text: string) => (/^\d+$/.test(text) ? Number(text) : undefined);

export const site: Site = {
  name: meta('application-name') || 'EduPass',
  logoUrl: meta('edupass:logo') || undefined,
  deletionGraceDays: days(meta('edupass:deletion-grace-days')),
};
