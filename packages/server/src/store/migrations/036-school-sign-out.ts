import type { Kysely } from 'kysely';

/**
 * Signing out at the school's system from EduPass. A sign-in through a connector that signs out
 * there too keeps what the school's system needs to end its own session (an OpenID Connect
 * platform's ID token, for `id_token_hint`; a SAML identity provider's NameID and SessionIndex),
 * sealed with the keyring's sealing key; null otherwise (CAS needs nothing). The hourly sweep deletes
 * the row with the session's end, as before.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('school_sign_ins').addColumn('upstream_sign_out', 'text').execute();
  // A sign-out finds its session's sign-in.
  await db.schema.createIndex('school_sign_ins_session').on('school_sign_ins').column('session_key').execute();
};
