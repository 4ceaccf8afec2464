export * from './captcha.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './routes.ts';
export * from './types.ts';
export * from './usage.ts';
export * from './validation.ts';
