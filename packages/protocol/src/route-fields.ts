/**
 * Field-spec helpers of routes.ts (not part of the package's public surface). account-routes.ts keeps
 * its own copies: esbuild honours @__NO_SIDE_EFFECTS__ only within a module, and its routes must stay
 * droppable one by one in bundles.
 */
import type { FieldSpec } from './routes.ts';

/* @__NO_SIDE_EFFECTS__ */
export const s = (maxLength = 256) => ({ type: 'string', required: true, maxLength }) as const;
/* @__NO_SIDE_EFFECTS__ */
export const int = () => ({ type: 'integer', required: true }) as const;
/* @__NO_SIDE_EFFECTS__ */
export const opt = <F extends FieldSpec>(field: F) =>
  ({ ...field, required: false }) as Omit<F, 'required'> & { readonly required: false };

/** The range of a 32-bit integer column, the bound of every integer field that names none. */
export const INT_COLUMN = { min: -2_147_483_648, max: 2_147_483_647 } as const;
/** The bound of integer fields that hold unix milliseconds (64-bit columns). */
export const MS_RANGE = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER } as const;
