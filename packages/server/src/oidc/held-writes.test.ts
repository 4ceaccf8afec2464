/**
 * The provider's writes of a request are committed together before its answer leaves
 * (services/identity/provider-writes.ts): when they cannot be written, the browser is answered 503
 * with `Retry-After`, never sent on with a code that was never stored, and nothing of the request is
 * kept; once the database takes writes again, the same resume goes through. On SQLite and PostgreSQL:
 * the database itself refuses the write (a trigger), as a full disk or a failover would.
 */
import { PASSWORD, signIn, signUpAgreed } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, discover, interactionCall, interactionOf } from '@edupass/test-kit/oidc-flow';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { dialectOf } from '../store/db.ts';

const { server, adoptOwnUrl } = useIssuerServer();
const CALLBACK = 'http://127.0.0.1:7301/callback';

const refuseCodes = async (refuse: boolean) => {
  const { db } = server.app.ctx;
  if (dialectOf(db) === 'sqlite') {
    await sql`drop trigger if exists refuse_codes`.execute(db);
    if (refuse)
      await sql`create trigger refuse_codes before insert on oidc_models when new.model = 'AuthorizationCode'
        begin select raise(abort, 'no space left on device'); end`.execute(db);
    return;
  }
  await sql`drop trigger if exists refuse_codes on oidc_models`.execute(db);
  if (!refuse) return;
  await sql`create or replace function refuse_codes() returns trigger language plpgsql as $$
    begin if new.model = 'AuthorizationCode' then raise exception 'no space left on device'; end if; return new; end $$`.execute(
    db,
  );
  await sql`create trigger refuse_codes before insert on oidc_models for each row execute function refuse_codes()`.execute(
    db,
  );
};

let app: { id: string; secret: string };

beforeAll(async () => {
  adoptOwnUrl();
  const registered = await registerApp(server, { redirect_uris: [CALLBACK] });
  app = { id: registered.application.client_id, secret: String(registered.client_secret) };
});

it('a resume whose writes fail answers 503 with Retry-After and no code; the same resume works once they succeed', async () => {
  const user = await signUpAgreed(server);
  const browser = cookieBrowser();
  const { landed } = await authorize(await discover(server, app.id, app.secret), browser, CALLBACK);
  const token = (await signIn(server, user.phone, PASSWORD)).access.token;
  const completed = await interactionCall<{ redirect_to: string }>(
    server,
    browser,
    'POST',
    `${interactionOf(landed)}/complete`,
    {},
    token,
  );
  expect(completed.status).toBe(200);

  await refuseCodes(true);
  try {
    const refused = await fetch(completed.body.redirect_to, {
      redirect: 'manual',
      headers: { cookie: browser.cookieHeader(), accept: 'text/html' },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('location')).toBeNull();
    expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
  } finally {
    await refuseCodes(false);
  }

  const resumed = await browser.follow(completed.body.redirect_to, (next) => next.startsWith(CALLBACK));
  expect(new URL(resumed).searchParams.get('code')).toEqual(expect.any(String));
});
