/**
 * The one set of route helpers: field specs (`s`, `int`, `opt`, `ruled`) and the account route
 * (`accountRoute`). esbuild honours `@__NO_SIDE_EFFECTS__` only within a module, so every call of these
 * at another module's top level is marked `/* @__PURE__ *\/`: a bundle then drops each route, and each
 * field, that nothing it keeps uses (the account SDK's size budget, packages/account/src/size.test.ts).
 */
import type { FieldSpec, FieldType, Method, RouteSpec, RuleName, WireRoute } from './routes.ts';

/* @__NO_SIDE_EFFECTS__ */
export const s = (maxLength = 256) => ({ type: 'string', required: true, maxLength }) as const;
/* @__NO_SIDE_EFFECTS__ */
export const int = () => ({ type: 'integer', required: true }) as const;
/* @__NO_SIDE_EFFECTS__ */
export const opt = <F extends FieldSpec>(field: F) =>
  ({ ...field, required: false }) as Omit<F, 'required'> & { readonly required: false };

export interface Ruled<R extends RuleName, T extends FieldType> {
  readonly type: T;
  readonly required: true;
  readonly maxLength: 256;
  readonly rule: R;
}
// Overloads rather than a defaulted type parameter: inside a route literal the contextual type
// would otherwise widen `type` to every FieldType.
export function ruled<R extends RuleName>(rule: R): Ruled<R, 'string'>;
export function ruled<R extends RuleName, T extends FieldType>(rule: R, type: T): Ruled<R, T>;
/* @__NO_SIDE_EFFECTS__ */
export function ruled(rule: RuleName, type: FieldType = 'string'): Ruled<RuleName, FieldType> {
  return { type, required: true, maxLength: 256, rule };
}

/** The range of a 32-bit integer column, the bound of every integer field that names none. */
export const INT_COLUMN = { min: -2_147_483_648, max: 2_147_483_647 } as const;
/** The bound of integer fields that hold unix milliseconds (64-bit columns). */
// Written out, not `Number.MIN_SAFE_INTEGER`: bundlers keep a global's property read, and with it this line.
export const MS_RANGE = { min: -9_007_199_254_740_991, max: 9_007_199_254_740_991 } as const;

export const ACCOUNTS_BASE = '/tiger/v3/web/accounts';

/** A route under the accounts base (account, e-mail, session and second-factor calls); 200 unless `extra` says. */
/* @__NO_SIDE_EFFECTS__ */
export const accountRoute = <
  const A extends RouteSpec['auth'],
  const E extends Partial<WireRoute> = Record<never, never>,
>(
  method: Method,
  path: string,
  auth: A,
  extra: E = {} as E,
) =>
  ({ method, path: `${ACCOUNTS_BASE}/${path}`, host: 'tiger', auth, status: 200, ...extra }) as Omit<
    { method: Method; path: string; host: 'tiger'; auth: A; status: 200 },
    keyof E
  > &
    E;
