/**
 * The server's pieces that the other packages' tests use (a database row, a policy, the app's build
 * options), so they reach the server through the test kit by name.
 */
export * from '../../server/src/app.ts';
export * from '../../server/src/cli/admin.ts';
export * from '../../server/src/config/config.ts';
export * from '../../server/src/services/captcha/policy.ts';
export * from '../../server/src/services/sessions/signing-keys.ts';
export * from '../../server/src/store/account/agreements.ts';
export * from '../../server/src/store/captcha/captcha.ts';
export * from '../../server/src/store/usage/events.ts';
