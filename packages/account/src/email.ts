/**
 * `@edupass/account/email`: an e-mail address as a way into the account — a password reset by a code
 * to the account's e-mail, sign-in by an e-mail code, adding or changing the address. An entry of its
 * own, like `./step-up`: the main entry stays within its size budget.
 */
export * from './calls/email.ts';
