import type { HostKind } from '@edupass/protocol';
import type { ResolvedConfig } from './config.ts';

const SUBDOMAIN: Record<HostKind, string> = { tiger: 'api', platform: 'platform' };

/**
 * Base URL of a host kind: the `host` override, else the per-environment host on `domain`
 * (`https://api.<domain>` in prod, `https://<env>-api.<domain>` elsewhere), else '' (same origin).
 */
export const baseUrl = (config: ResolvedConfig, kind: HostKind): string => {
  const override = config.host?.[kind];
  if (override !== undefined) return override.replace(/\/+$/, '');
  if (!config.domain) return '';
  const domain = config.domain.replace(/^\./, '');
  return `https://${config.env === 'prod' ? '' : `${config.env}-`}${SUBDOMAIN[kind]}.${domain}`;
};
