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
export const opt = <F extends FieldSpec>(field: F) => ({ ...field, required: false }) as const;
