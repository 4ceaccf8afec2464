import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Applications' sign-ins end with the account's sessions: the provider's stored models carry the
 * account they belong to (`account_id`, from the payload's `accountId`; the user id of a session
 * link), so the grants and tokens standing on an ended EduPass session are found and revoked. An
 * application may register a back-channel logout URI (OpenID Connect Back-Channel Logout 1.0).
 */
export const up = async (db: Kysely<unknown>, _context: MigrationContext): Promise<void> => {
  await db.schema.alterTable('oidc_models').addColumn('account_id', 'text').execute();
  await db.schema.createIndex('oidc_models_account').on('oidc_models').columns(['account_id', 'model']).execute();
  await db.schema.alterTable('applications').addColumn('backchannel_logout_uri', 'text').execute();
};
