/**
 * `@edupass/account/avatar`: uploading a profile picture. An entry of its own, like `./agreements`: a site
 * that never lets users upload ships none of it, and the main entry stays within its size budget.
 */
export * from './calls/avatar.ts';
