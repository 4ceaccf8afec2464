/**
 * The identity provider's part of the configuration, read by `loadConfig` (config.ts).
 *
 * OIDC_RESOURCES  comma-separated absolute URLs of the APIs that accept EduPass access tokens from
 *                 applications (RFC 8707 resource indicators, as Logto's and Auth0's "API resources").
 *                 An application asking for one of them (`resource=`) gets an RFC 9068 JWT access
 *                 token whose `aud` is that URL; any other resource is refused (`invalid_target`).
 *                 Unset: no resource servers, access tokens are for userinfo only.
 */
import type { Readers } from './readers.ts';

export interface IdentityConfig {
  oidcResources: string[];
}

export const readIdentityConfig = ({ str }: Readers, problems: string[]): IdentityConfig => {
  const resources = (str('OIDC_RESOURCES') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const resource of resources) {
    let ok = false;
    try {
      const url = new URL(resource);
      ok = (url.protocol === 'https:' || url.protocol === 'http:') && url.hash === '' && !resource.includes('#');
    } catch {}
    if (!ok) {
      problems.push(
        `OIDC_RESOURCES entry "${resource}" must be an absolute http(s) URL without a fragment. Fix: e.g. OIDC_RESOURCES=https://api.school.example/`,
      );
    }
  }
  return { oidcResources: resources };
};
