/** Registered applications (clients of the OpenID Connect provider). */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import { cachedSetting, writeSettings } from '../settings-cache.ts';
import type { ApplicationsTable } from './identity-schema.ts';

type Db = Kysely<Database>;
export type ApplicationRow = Selectable<ApplicationsTable>;

export const insertApplication = (db: Db, row: ApplicationRow) =>
  writeSettings(db, 'applications', () => db.insertInto('applications').values(row).execute());

/** Remembered per process (settings-cache.ts): every write below forgets it. */
export const findApplication = (db: Db, clientId: string) =>
  cachedSetting(db, 'applications', clientId, () =>
    db.selectFrom('applications').selectAll().where('client_id', '=', clientId).executeTakeFirst(),
  );

export const listApplicationRows = (db: Db) =>
  db.selectFrom('applications').selectAll().orderBy('created_at').execute();

/** Changes the given columns; answers whether the application existed. */
export const updateApplicationRow = async (
  db: Db,
  clientId: string,
  changed: Partial<Omit<ApplicationRow, 'client_id' | 'secret_hash' | 'created_at' | 'updated_at'>>,
  now: number,
) => {
  const result = await writeSettings(db, 'applications', () =>
    db
      .updateTable('applications')
      .set({ ...changed, updated_at: now })
      .where('client_id', '=', clientId)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
};

/** Answers whether the application existed. */
export const setApplicationSecretHash = async (db: Db, clientId: string, secretHash: string, now: number) => {
  const result = await writeSettings(db, 'applications', () =>
    db
      .updateTable('applications')
      .set({ secret_hash: secretHash, updated_at: now })
      .where('client_id', '=', clientId)
      .where('secret_hash', 'is not', null)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
};

/** Removes the application and everything the provider kept for it; answers whether it existed. */
export const deleteApplication = async (db: Db, clientId: string) =>
  writeSettings(db, 'applications', () =>
    db.transaction().execute(async (tx) => {
      const result = await tx.deleteFrom('applications').where('client_id', '=', clientId).executeTakeFirst();
      await tx.deleteFrom('oidc_models').where('client_id', '=', clientId).execute();
      return Number(result.numDeletedRows) > 0;
    }),
  );

/** Of `clientIds`, those that registered a back-channel logout URI. */
export const applicationsWithBackchannelLogout = async (db: Db, clientIds: string[]) =>
  clientIds.length === 0
    ? []
    : (
        await db
          .selectFrom('applications')
          .select('client_id')
          .where('client_id', 'in', clientIds)
          .where('backchannel_logout_uri', 'is not', null)
          .execute()
      ).map((row) => row.client_id);
