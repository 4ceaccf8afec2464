#!/usr/bin/env node
// @edupass/node bench (not a test): access-token verifications per second on one core, beside
// jose's HS256 verification with a pre-imported key (the fastest JWT check there is) as the anchor.
// The verifier is the real one: createVerifier fetching an ES256 JWKS over HTTP from a local
// node:http server (once; then cached), exactly as a site's backend runs it.
// Rates are per second of the process's CPU time (one core). Usage: npm run bench:node
// Knobs: BENCH_SECONDS (per measurement, 3), BENCH_ROUNDS (3).
import { runServerScript } from '../run-server-script.mjs';

await runServerScript(new URL('./verify.ts', import.meta.url).pathname, { dirname: import.meta.dirname });
