/**
 * `@edupass/account/second-factor`: the authenticator app, passkeys and recovery codes, and the second
 * step of a sign-in. An entry of its own (like `./step-up`): a site that offers none of it ships none of it.
 */
export * from './calls/second-factor.ts';
