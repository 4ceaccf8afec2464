/**
 * `@edupass/account/identity`: the calls of the sign-in screens that send the user back to an
 * application (OpenID Connect interactions, allow-listed return addresses). An entry of its own: only
 * a site's sign-in screens need it, and the main entry stays within its size budget.
 */
export * from './calls/identity.ts';
