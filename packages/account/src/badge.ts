/**
 * `@edupass/account/badge`: signing in with a login card's badge (the QR code a school prints for a
 * pupil, docs/education.md). An entry of its own, like `./agreements`: a site without login cards
 * ships none of it, and the main entry stays within its size budget.
 */
export * from './calls/badge.ts';
