/**
 * Removing an application takes what the provider kept for it (its grants, tokens and codes, found by
 * their client id) and nothing of any other application or of the accounts' provider sessions.
 */
import { useTestStore } from '@edupass/test-kit/test-store';
import { describe, expect, it } from 'vitest';
import { deleteApplication } from './applications.ts';
import { upsertModel } from './oidc-writes.ts';

const store = useTestStore();

const model = (model: string, id: string, clientId: string | null) =>
  upsertModel(store().db, {
    model,
    id,
    payload: JSON.stringify(clientId === null ? { accountId: '7' } : { clientId, accountId: '7' }),
    grantId: null,
    uid: null,
    userCode: null,
    accountId: '7',
    clientId,
    expiresAt: Date.now() + 3_600_000,
  });

describe('removing an application', () => {
  it("takes its grants, tokens and codes by client id, and leaves other applications' and the sessions", async () => {
    await model('Grant', 'g-gone', 'app-gone');
    await model('AccessToken', 'at-gone', 'app-gone');
    await model('AuthorizationCode', 'code-gone', 'app-gone');
    await model('Grant', 'g-stays', 'app-stays');
    await model('Session', 's-stays', null);
    await deleteApplication(store().db, 'app-gone');
    const left = await store()
      .db.selectFrom('oidc_models')
      .select('id')
      .where('id', 'like', '%-%')
      .orderBy('id')
      .execute();
    expect(left.map((row) => row.id)).toEqual(['g-stays', 's-stays']);
  });
});
