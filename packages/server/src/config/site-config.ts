/**
 * The site's name and logo, shown by the web client's first screen (its header, the page title), read
 * by `loadConfig` (config.ts) with the same rules. The server writes them into the page it sends
 * (http/web-page.ts), so the first paint has them without another request.
 *
 * SITE_NAME      the name people know the site by (EduPass); at most 40 characters.
 * SITE_LOGO_URL  the logo, an https or http URL or a path on this server (`/brand/logo.svg`), shown at
 *                32 px high; the product's own logo when unset.
 */
import type { Readers } from './readers.ts';

export interface SiteConfig {
  name: string;
  logoUrl: string | undefined;
}

export const DEFAULT_SITE_NAME = 'EduPass';
const MAX_NAME = 40;

export const readSiteConfig = ({ str }: Readers, problems: string[]): SiteConfig => {
  const name = str('SITE_NAME')?.trim() || DEFAULT_SITE_NAME;
  const logoUrl = str('SITE_LOGO_URL')?.trim() || undefined;
  if ([...name].length > MAX_NAME) {
    problems.push(
      `SITE_NAME has more than ${MAX_NAME} characters. Fix: a shorter name, e.g. SITE_NAME="Bright School"`,
    );
  }
  if (logoUrl !== undefined && !isLogoAddress(logoUrl)) {
    problems.push(
      `SITE_LOGO_URL="${logoUrl}" must be an https or http URL or a path starting with "/". Fix: e.g. SITE_LOGO_URL=/brand/logo.svg`,
    );
    return { name, logoUrl: undefined };
  }
  return { name, logoUrl };
};

const isLogoAddress = (value: string): boolean => {
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    return ['https:', 'http:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
