/**
 * `@edupass/account/step-up`: the calls that prove a session before a takeover-prone change, and
 * ending the other sessions. An entry of their own, like `./react`: a site that never changes phones or
 * links ships none of it, and the main entry stays within its size budget.
 */
export * from './calls/step-up.ts';
