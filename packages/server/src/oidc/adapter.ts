/**
 * oidc-provider's storage in EduPass's database (store/identity/oidc-models.ts, oidc-writes.ts), for
 * SQLite and PostgreSQL alike; applications are its clients (store/identity/applications.ts). Expired
 * rows are swept hourly.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Context } from '../context.ts';
import {
  consumeModel,
  deleteModel,
  findApplication,
  findModel,
  findTokenWithGrantAndSession,
  forgetAllReadAhead,
  holdConsumption,
  readAhead,
  readAheadRow,
  revokeModelsOfGrant,
  revokeReplayed,
  saveModel,
  writeHeldBefore,
} from '../services/identity/provider-data.ts';
import { clientMetadata } from './clients.ts';

type StoreContext = Pick<Context, 'db' | 'now'>;

const parsed = (row: { payload: string; consumed_at: number | null } | undefined): AdapterPayload | undefined => {
  if (row === undefined) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(row.consumed_at / 1000) };
};

/** Clients are the registered applications; they are read, never written, through the provider. */
const clientAdapter = (ctx: StoreContext): Adapter => {
  const readOnly = async () => {};
  return {
    find: async (id) => {
      const row = await findApplication(ctx.db, id);
      return row === undefined ? undefined : clientMetadata(row);
    },
    upsert: readOnly,
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: readOnly,
  };
};

/**
 * Codes and tokens, and interactions: read with their grant and session, which the provider reads
 * next (resuming a sign-in reads the interaction, then the grant its consent names).
 */
const READ_WITH_GRANT = new Set(['AuthorizationCode', 'AccessToken', 'RefreshToken', 'Interaction']);

/** The grant an interaction's consent gave (oidc-provider keeps it in `result.consent.grantId`). */
const consentGrantOf = (payload: AdapterPayload): string | undefined => {
  const grantId = (payload.result as { consent?: { grantId?: unknown } } | undefined)?.consent?.grantId;
  return typeof grantId === 'string' ? grantId : undefined;
};

/** A code, token or interaction by id; its grant and provider session kept for the request (provider-writes.ts). */
const findToken = async (ctx: StoreContext, model: string, id: string) => {
  const rows = await findTokenWithGrantAndSession(ctx.db, model, id, ctx.now());
  for (const row of rows) {
    if (row.model === 'Grant') readAhead('Grant', { column: 'id', value: row.id }, row);
    else if (row.model === 'Session' && row.uid !== null) readAhead('Session', { column: 'uid', value: row.uid }, row);
  }
  return rows.find((row) => row.model === model && row.id === id);
};

/**
 * The provider checks "consumed" and then consumes, so two requests with one code (or one refresh
 * token) at the same moment could both pass its check: the conditional update lets one through and
 * refuses the other with `alreadyConsumed` (the provider's invalid_grant). A refused one is a replay,
 * as the provider treats one it sees consumed: the grant is revoked with every token it issued.
 */
const modelAdapter = (ctx: StoreContext, model: string, alreadyConsumed: () => Error): Adapter => {
  // Within a request the saves and deletions are held and written together (provider-writes.ts).
  const find = async (column: 'id' | 'uid' | 'user_code', value: string) => {
    await writeHeldBefore(ctx.db, model, { column, value });
    if (column === 'id' && READ_WITH_GRANT.has(model)) return parsed(await findToken(ctx, model, value));
    const ahead = readAheadRow(model, { column, value });
    if (ahead !== undefined) return parsed(ahead);
    return parsed(await findModel(ctx.db, model, { column, value }, ctx.now()));
  };
  return {
    upsert: (id, payload, expiresIn) =>
      saveModel(ctx.db, {
        model,
        id,
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? consentGrantOf(payload) ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        accountId: typeof payload.accountId === 'string' ? payload.accountId : null,
        clientId: typeof payload.clientId === 'string' ? payload.clientId : null,
        sessionUid: typeof payload.sessionUid === 'string' ? payload.sessionUid : null,
        expiresAt: ctx.now() + expiresIn * 1000,
      }),
    find: (id) => find('id', id),
    findByUid: (uid) => find('uid', uid),
    findByUserCode: (code) => find('user_code', code),
    consume: async (id) => {
      await writeHeldBefore(ctx.db, model, { column: 'id', value: id });
      // Within a request, consumed first in the request's one transaction (provider-writes.ts).
      if (holdConsumption(model, id, ctx.now())) return;
      if (await consumeModel(ctx.db, model, id, ctx.now())) return;
      await revokeReplayed(ctx.db, model, id);
      throw alreadyConsumed();
    },
    destroy: (id) => deleteModel(ctx.db, model, id),
    revokeByGrantId: async (grantId) => {
      await writeHeldBefore(ctx.db);
      forgetAllReadAhead();
      await revokeModelsOfGrant(ctx.db, grantId);
    },
  };
};

/** The adapter factory the provider's `adapter` option takes: one adapter per model name. */
export const databaseAdapter = (ctx: StoreContext, alreadyConsumed: () => Error) => (model: string) =>
  model === 'Client' ? clientAdapter(ctx) : modelAdapter(ctx, model, alreadyConsumed);
