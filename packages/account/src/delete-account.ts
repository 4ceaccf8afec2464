/**
 * `@edupass/account/delete-account`: a user deleting their own account. An entry of its own (like
 * `./sessions`): the main entry stays within its size budget.
 */
export * from './calls/account-deletion.ts';
