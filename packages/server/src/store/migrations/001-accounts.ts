import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('products')
    .addColumn('pid', 'text', (c) => c.primaryKey())
    .addColumn('product_code', 'text', (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('users'))
    .addColumn('pid', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.unique())
    .addColumn('email', 'text', (c) => c.unique())
    .addColumn('username', 'text')
    .addColumn('username_key', 'text', (c) => c.unique())
    .addColumn('password_hash', 'text')
    .addColumn('weak_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('nickname', 'text', (c) => c.unique())
    .addColumn('avatar_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fullname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sex', 'integer')
    .addColumn('birthday', 'bigint')
    .addColumn('qq', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('grade', 'integer')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('blocked_at', ms)
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('codes')
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('scene', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('codes_pk', ['target', 'scene'])
    .execute();

  await db.schema
    .createTable('tickets')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('used_at', ms)
    .execute();

  await db.schema
    .createTable('counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('revoked_at', ms)
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('rotated_at', ms)
    .execute();
  await db.schema.createIndex('refresh_tokens_session').on('refresh_tokens').column('session_id').execute();

  await id(db.schema.createTable('agreements'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('effective_at', ms, (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addUniqueConstraint('agreements_code_version', ['code', 'version'])
    .execute();

  await db.schema
    .createTable('agreement_signatures')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('agreement_id', 'integer', (c) => c.notNull().references('agreements.id').onDelete('cascade'))
    .addColumn('signed_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('agreement_signatures_pk', ['user_id', 'agreement_id'])
    .execute();

  await id(db.schema.createTable('user_oauths'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('openid', 'text', (c) => c.notNull())
    .addColumn('unionid', 'text')
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', ms, (c) => c.notNull())
    .addUniqueConstraint('user_oauths_identity', ['provider', 'openid'])
    .addUniqueConstraint('user_oauths_one_per_kind', ['user_id', 'provider'])
    .execute();

  await id(db.schema.createTable('outbox'))
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('sent_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_recipient').on('outbox').columns(['recipient', 'id']).execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
};
