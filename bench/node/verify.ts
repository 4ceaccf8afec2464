/**
 * The measurement bench/node/run.mjs runs (bundled with the package's sources): see run.mjs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { createVerifier } from '../../packages/node/src/index.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ISSUER = 'https://account.example.com';

const { publicKey, privateKey } = await generateKeyPair('ES256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;

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

/**
 * Calls of `work` per second of this process's CPU time (one call at a time, on one core): CPU time,
 * not wall time, so other work on a shared machine disturbs the figure far less.
 */
const rate = async (work: () => Promise<unknown>) => {
  let count = 0;
  const until = performance.now() + SECONDS * 1000;
  const cpu = process.cpuUsage();
  while (performance.now() < until) {
    for (let i = 0; i < 100; i++) await work();
    count += 100;
  }
  const used = process.cpuUsage(cpu);
  return count / ((used.user + used.system) / 1e6);
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results: { edupass: number[]; hs256: number[] } = { edupass: [], hs256: [] };
for (let round = 1; round <= ROUNDS; round++) {
  results.edupass.push(await rate(() => verifier.verify(es256)));
  results.hs256.push(await rate(() => jwtVerify(hs256, hmacKey)));
  console.log(
    `round ${round}/${ROUNDS}: @edupass/node verify (ES256, cached JWKS) ${Math.round(results.edupass.at(-1) ?? 0).toLocaleString('en')}/s; jose HS256 (CryptoKey) ${Math.round(results.hs256.at(-1) ?? 0).toLocaleString('en')}/s`,
  );
}
const ours = median(results.edupass) ?? 0;
const anchor = median(results.hs256) ?? 1;
console.log(
  `\n@edupass/node: ${Math.round(ours).toLocaleString('en')} verifications/s per core (CPU time, median of ${ROUNDS} rounds); jose HS256 anchor ${Math.round(anchor).toLocaleString('en')}/s; ratio ${(ours / anchor).toFixed(2)}×`,
);
server.close();
