/**
 * `@edupass/account/agreements`: reading an agreement's text before consent. An entry of its own, like
 * `./step-up`: a site that links to its own pages ships none of it, and the main entry stays within its
 * size budget.
 */
export * from './calls/agreement-text.ts';
