/**
 * `@edupass/account/sessions`: the signed-in devices (list, sign one out) and the password changes that
 * keep this device signed in. An entry of its own (like `./step-up`): the main entry stays within its
 * size budget, and a site without an account centre ships none of it.
 */
export * from './calls/sessions.ts';
