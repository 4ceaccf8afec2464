/** The origins that are "this site": PUBLIC_URL's, and the front ends of CORS_ORIGINS. */
import type { Config } from './config.ts';

export const siteOrigins = (config: Pick<Config, 'publicUrl' | 'corsOrigins'>): string[] => [
  new URL(config.publicUrl).origin,
  ...config.corsOrigins,
];
