import type { Kysely } from 'kysely';

/**
 * Back-channel logout from schools' OpenID Connect platforms. `school_sign_ins` keeps, per sign-in, an
 * HMAC of the platform's session id (its ID token's `sid`) and of the person there (`sub`): a logout
 * token names either or both, and one platform session can start several EduPass sessions.
 * `saml_assertions` becomes `upstream_tokens_used`: the SAML assertions and the logout tokens (by
 * `jti`) already taken, each an HMAC kept until it expires, so neither can be presented twice.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('school_sign_ins').addColumn('upstream_session', 'text').execute();
  await db.schema.alterTable('school_sign_ins').addColumn('upstream_subject', 'text').execute();
  await db.schema
    .createIndex('school_sign_ins_upstream_session')
    .on('school_sign_ins')
    .columns(['connector_id', 'upstream_session'])
    .execute();
  await db.schema
    .createIndex('school_sign_ins_upstream_subject')
    .on('school_sign_ins')
    .columns(['connector_id', 'upstream_subject'])
    .execute();
  await db.schema.dropIndex('saml_assertions_expires').execute();
  await db.schema.alterTable('saml_assertions').renameTo('upstream_tokens_used').execute();
  await db.schema.alterTable('upstream_tokens_used').renameColumn('assertion_key', 'token_key').execute();
  await db.schema.createIndex('upstream_tokens_used_expires').on('upstream_tokens_used').column('expires_at').execute();
};
