/**
 * A school's SAML connector names one institution of a federation (CARSI): the federation's metadata
 * address and signing certificate, and the institution's entity ID. The aggregate is fetched, its
 * signature checked, and its signed content kept; it is fetched again (its signature checked again)
 * at the first sign-in after the refresh interval, or the aggregate's shorter cacheDuration, has
 * passed, or once its validUntil has; a failed refresh keeps the last good copy (tried again after the
 * interval). Many schools
 * of one federation share one copy.
 */
import { X509Certificate } from 'node:crypto';
import { isRecord } from '@edupass/protocol';
import { fetchText, ProviderUnreachableError } from '../../../../adapters/provider-http.ts';
import {
  type FederationIdp,
  type FederationMetadata,
  MetadataRefused,
  readAggregate,
  signedAggregate,
} from '../../../../adapters/saml-metadata.ts';
import type { Context } from '../../../../context.ts';
import { invalidRequest, RetryLater } from '../../../../errors.ts';
import { findSamlMetadata, markSamlMetadataTried, putSamlMetadata } from '../../../../store/edu/federation/saml.ts';
import { upstreamUrl } from '../upstream-url.ts';

export interface SamlFederation {
  metadataUrl: string;
  /** PEM of the certificate whose key signs the aggregate. */
  federationCert: string;
  /** The institution's identity provider in the aggregate. */
  idpEntityId: string;
  /** @default 60 */
  refreshMinutes: number;
}

const FETCH_TIMEOUT_MS = 20_000;

export const samlSettings = (ctx: Context, settings: unknown): SamlFederation => {
  if (!isRecord(settings)) throw invalidRequest('settings must be an object.');
  const pem = typeof settings.federation_cert === 'string' ? settings.federation_cert.trim() : '';
  try {
    new X509Certificate(pem);
  } catch {
    throw invalidRequest('settings.federation_cert must be the federation’s certificate (PEM).');
  }
  const entityId = settings.idp_entity_id;
  if (typeof entityId !== 'string' || entityId === '' || entityId.length > 1024) {
    throw invalidRequest('settings.idp_entity_id must be the institution’s entity ID.');
  }
  const refresh = settings.refresh_minutes ?? 60;
  if (!Number.isInteger(refresh) || (refresh as number) < 5 || (refresh as number) > 7 * 24 * 60) {
    throw invalidRequest('settings.refresh_minutes must be a whole number from 5 to 10080.');
  }
  return {
    metadataUrl: upstreamUrl(ctx, settings.metadata_url, 'metadata_url'),
    federationCert: pem,
    idpEntityId: entityId,
    refreshMinutes: refresh as number,
  };
};

/** Parsed copies, per server: an aggregate of thousands of entities is not parsed at every sign-in. */
const parsed = new WeakMap<Context, Map<string, { fetchedAt: number; metadata: FederationMetadata }>>();

const readCopy = (ctx: Context, url: string, fetchedAt: number, xml: string) => {
  const copies = parsed.get(ctx) ?? new Map();
  parsed.set(ctx, copies);
  const known = copies.get(url);
  if (known?.fetchedAt === fetchedAt) return known.metadata;
  const metadata = readAggregate(xml);
  copies.set(url, { fetchedAt, metadata });
  return metadata;
};

/** Fetches and checks the aggregate; the signed content, or why not. */
const fetchAggregate = async (federation: SamlFederation): Promise<string> => {
  const answer = await fetchText(
    federation.metadataUrl,
    { headers: { accept: 'application/samlmetadata+xml' } },
    FETCH_TIMEOUT_MS,
  );
  if (answer.status !== 200) throw new MetadataRefused(`The metadata address answered HTTP ${answer.status}.`);
  return signedAggregate(answer.text, federation.federationCert);
};

/**
 * A lapsed copy is fetched again at most this often (a federation that is down is not asked at every
 * sign-in), and no cacheDuration brings a refresh sooner.
 */
const LAPSED_RETRY_MS = 60_000;

/**
 * Whether the kept copy is due for a refresh: the connector's interval, or sooner the aggregate's own
 * cacheDuration, has passed since the last try; or its validUntil has passed (then at most once a minute).
 */
const due = (federation: SamlFederation, metadata: FederationMetadata, triedAt: number, now: number) => {
  const since = now - triedAt;
  if (metadata.validUntil !== undefined && metadata.validUntil <= now) return since >= LAPSED_RETRY_MS;
  // An aggregate asking for less than a minute (PT1S) is not fetched and checked again at every sign-in.
  const cached = Math.max(metadata.cacheDuration ?? Number.POSITIVE_INFINITY, LAPSED_RETRY_MS);
  return since >= Math.min(federation.refreshMinutes * 60_000, cached);
};

/** The federation's metadata: the kept copy, refreshed lazily when due (or when `force`d). */
const federationMetadata = async (ctx: Context, federation: SamlFederation, force = false) => {
  const url = federation.metadataUrl;
  const kept = await findSamlMetadata(ctx.db, url);
  const now = ctx.now();
  const copy = kept && readCopy(ctx, url, Number(kept.fetched_at), kept.xml);
  if (copy && !force && !due(federation, copy, Number(kept.tried_at), now)) return copy;
  try {
    const signed = await fetchAggregate(federation);
    const metadata = readAggregate(signed);
    if (metadata.validUntil !== undefined && metadata.validUntil <= now) {
      throw new MetadataRefused('The metadata is past its validUntil.');
    }
    await putSamlMetadata(ctx.db, url, signed, now);
    return readCopy(ctx, url, now, signed);
  } catch (error) {
    if (!(error instanceof MetadataRefused || error instanceof ProviderUnreachableError)) throw error;
    ctx.logger.warn({ url, err: error.message }, 'SAML federation metadata refresh failed');
    if (!kept || force) throw error;
    await markSamlMetadataTried(ctx.db, url, now);
    return readCopy(ctx, url, Number(kept.fetched_at), kept.xml);
  }
};

const idpIn = (metadata: FederationMetadata, federation: SamlFederation) =>
  metadata.idps.find((idp) => idp.entityId === federation.idpEntityId);

/** The institution's identity provider for a sign-in; E_10 when no good copy of the metadata holds it. */
export const federationIdp = async (ctx: Context, federation: SamlFederation): Promise<FederationIdp> => {
  try {
    const metadata = await federationMetadata(ctx, federation);
    if (metadata.validUntil !== undefined && metadata.validUntil <= ctx.now()) {
      throw new MetadataRefused('The kept metadata is past its validUntil.');
    }
    const idp = idpIn(metadata, federation);
    if (idp) return idp;
  } catch (error) {
    if (!(error instanceof MetadataRefused || error instanceof ProviderUnreachableError)) throw error;
  }
  throw new RetryLater(60, "The school's sign-in system cannot be used now. Try again later.");
};

/** When a connector is added: the metadata fetched now holds the institution; E_1 says what is wrong. */
export const checkFederationIdp = async (ctx: Context, federation: SamlFederation): Promise<void> => {
  let metadata: FederationMetadata;
  try {
    metadata = await federationMetadata(ctx, federation, true);
  } catch (error) {
    if (error instanceof MetadataRefused || error instanceof ProviderUnreachableError) {
      throw invalidRequest(`settings.metadata_url: ${error.message}`);
    }
    throw error;
  }
  if (!idpIn(metadata, federation)) {
    throw invalidRequest('settings.idp_entity_id names no identity provider in the federation’s metadata.');
  }
};
