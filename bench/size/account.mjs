/**
 * Gzip size of the account SDK — whole (every call) and a password-login-only import — beside the
 * sign-in surface of well-known auth SDKs, all bundled the same way in one run (esbuild, minified ESM
 * for the browser, gzip -9), printed as ratios to ours.
 *
 *   node bench/size/account.mjs
 *
 * The anchors are pinned in bench/anchors/package.json and installed there on demand (never the
 * root's dependencies).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sdkSize } from '../../scripts/sdk-size.mjs';
import { anchorsDir, ensureAnchors } from '../anchors/anchors.mjs';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const account = join(benchDir, '..', 'packages/account/src/index.ts').replaceAll('\\', '/');

ensureAnchors();

const config = `{ pid: 'p', appid: 'a', product_code: 'c', platform: 'web', auth_version: 2 }`;

/** Each entry uses the library the way a site would for e-mail/password sign-in (the whole SDK: everything). */
const entries = {
  'edupass account — whole SDK': `export * from '${account}';`,
  'edupass account — password login': `import { createAccountClient, loginByPassword } from '${account}';
    loginByPassword(createAccountClient(${config}), { identity: 'a', password: 'b' });`,
  '@auth0/auth0-spa-js': `import { createAuth0Client } from '@auth0/auth0-spa-js';
    createAuth0Client({ domain: 'x', clientId: 'y' }).then((c) => c.loginWithRedirect());`,
  '@supabase/auth-js': `import { GoTrueClient } from '@supabase/auth-js';
    new GoTrueClient({ url: 'https://x' }).signInWithPassword({ email: 'a', password: 'b' });`,
  'firebase/auth (e-mail sign-in)': `import { initializeApp } from 'firebase/app';
    import { getAuth, signInWithEmailAndPassword } from 'firebase/auth';
    signInWithEmailAndPassword(getAuth(initializeApp({ apiKey: 'k' })), 'a', 'b');`,
  'better-auth client': `import { createAuthClient } from 'better-auth/client';
    createAuthClient({ baseURL: 'https://x' }).signIn.email({ email: 'a', password: 'b' });`,
  'keycloak-js': `import Keycloak from 'keycloak-js';
    new Keycloak({ url: 'https://x', realm: 'r', clientId: 'c' }).init({}).then(() => {});`,
};

const rows = [];
for (const [name, contents] of Object.entries(entries)) rows.push({ name, ...(await sdkSize(contents, anchorsDir)) });
const [whole, login] = rows.map((row) => row.gzip);
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
console.log(`${'library'.padEnd(36)}   minified    gzip -9  ÷ whole  ÷ login`);
for (const row of rows) {
  const ratio = (ours) => `${(row.gzip / ours).toFixed(2)}×`.padStart(7);
  console.log(
    `${row.name.padEnd(36)} ${kb(row.min).padStart(10)} ${kb(row.gzip).padStart(10)} ${ratio(whole)} ${ratio(login)}`,
  );
}
const smallestAnchor = Math.min(...rows.slice(2).map((row) => row.gzip));
const check = (label, size, limit) =>
  console.log(`${label}: ${kb(size)} of ${kb(limit)} — ${size < limit ? 'ok' : 'OVER'}`);
check('whole SDK target', whole, 8192);
check('password-login target', login, 4096);
console.log(
  `smallest anchor: ${kb(smallestAnchor)} — whole SDK is ${whole < smallestAnchor ? 'smaller' : 'NOT smaller'}`,
);
if (whole >= 8192 || login >= 4096 || whole >= smallestAnchor) process.exitCode = 1;
