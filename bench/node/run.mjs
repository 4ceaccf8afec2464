#!/usr/bin/env node
// @edupass/node bench (not a test): access-token verifications per second on one core, beside
// jose's HS256 verification with a pre-imported key (the fastest JWT check there is) as the anchor.
// The verifier is the real one: createVerifier fetching an ES256 JWKS over HTTP from a local
// node:http server (once; then cached), exactly as a site's backend runs it.
// Usage: node bench/node/run.mjs   Knobs: BENCH_SECONDS (per measurement, 3), BENCH_ROUNDS (3).
import { createServer } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { ESBUILD_CONDITIONS } from '../../scripts/source-condition.mjs';

const root = new URL('../../', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ISSUER = 'https://account.example.com';

// The package's sources, bundled as the published build would run (jose stays external).
const outfile = join(root, 'node_modules/.cache/edupass-bench-node/node.mjs');
await build({
  entryPoints: [join(root, 'packages/node/src/index.ts')],
  outfile,
  bundle: true,
  conditions: ESBUILD_CONDITIONS,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['jose'],
  logLevel: 'warning',
});
const { createVerifier } = await import(outfile);

const { publicKey, privateKey } = await generateKeyPair('ES256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const jwksUrl = `http://127.0.0.1:${server.address().port}/.well-known/jwks.json`;

const claims = { sid: '6f1c2d3e-0000-4000-a000-000000000001', scope: 'account' };
const es256 = await new SignJWT(claims)
  .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: 'JWT' })
  .setIssuer(ISSUER)
  .setSubject('42')
  .setAudience('courses')
  .setIssuedAt()
  .setExpirationTime('15m')
  .sign(privateKey);
const hmacKey = await crypto.subtle.importKey(
  'raw',
  crypto.getRandomValues(new Uint8Array(32)),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['sign', 'verify'],
);
const hs256 = await new SignJWT(claims)
  .setProtectedHeader({ alg: 'HS256' })
  .setSubject('42')
  .setExpirationTime('15m')
  .sign(hmacKey);

const verifier = createVerifier({ issuer: ISSUER, jwksUrl, audience: 'courses' });
await verifier.verify(es256); // fetches the JWKS once

/** Calls per second of `work`, one at a time on this one core, for SECONDS. */
const rate = async (work) => {
  let count = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  while (performance.now() < until) {
    for (let i = 0; i < 100; i++) await work();
    count += 100;
  }
  return count / ((performance.now() - started) / 1000);
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = { edupass: [], hs256: [] };
for (let round = 1; round <= ROUNDS; round++) {
  results.edupass.push(await rate(() => verifier.verify(es256)));
  results.hs256.push(await rate(() => jwtVerify(hs256, hmacKey)));
  console.log(
    `round ${round}/${ROUNDS}: @edupass/node verify (ES256, cached JWKS) ${Math.round(results.edupass.at(-1)).toLocaleString('en')}/s; jose HS256 (CryptoKey) ${Math.round(results.hs256.at(-1)).toLocaleString('en')}/s`,
  );
}
const ours = median(results.edupass);
const anchor = median(results.hs256);
console.log(
  `\n@edupass/node: ${Math.round(ours).toLocaleString('en')} verifications/s per core (median of ${ROUNDS}); jose HS256 anchor ${Math.round(anchor).toLocaleString('en')}/s; ratio ${(ours / anchor).toFixed(2)}×`,
);
server.close();
