/**
 * INTROSPECTION_SECRETS=pid:secret,…  lets a product's backend ask `POST /introspect` whether a token
 * is still live (RFC 7662), authenticating with HTTP Basic `pid:secret`. Each secret is at least 32
 * characters. (Registered confidential applications will authenticate the same way with their own
 * client secrets; until then this is the only way in.)
 */
import type { Readers } from './readers.ts';

export interface IntrospectionConfig {
  /** pid → secret of the products allowed to introspect. */
  introspectionSecrets: Record<string, string>;
}

export const readIntrospectionConfig = ({ str }: Readers, problems: string[]): IntrospectionConfig => {
  const introspectionSecrets: Record<string, string> = {};
  for (const entry of (str('INTROSPECTION_SECRETS') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const colon = entry.indexOf(':');
    const pid = colon < 0 ? '' : entry.slice(0, colon);
    const secret = colon < 0 ? '' : entry.slice(colon + 1);
    if (pid === '' || secret.length < 32) {
      problems.push(
        `INTROSPECTION_SECRETS entry "${pid || entry.slice(0, 8)}…" must be pid:secret with a secret of at least 32 characters. Fix: e.g. INTROSPECTION_SECRETS=edupass:$(openssl rand -hex 24)`,
      );
      continue;
    }
    introspectionSecrets[pid] = secret;
  }
  return { introspectionSecrets };
};
