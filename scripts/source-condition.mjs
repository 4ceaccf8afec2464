/**
 * The export condition under which the workspace packages resolve to their TypeScript sources.
 * Each package's `exports` lists it first, before the built `dist/` files a published install uses,
 * so inside the repository vitest, vite, tsc, esbuild and the server run from sources with no
 * build step. Namespaced so that no dependency's own `source` export is picked up by mistake.
 */
export const SOURCE_CONDITION = '@edupass/source';

/**
 * esbuild's `conditions` with it. Setting `conditions` replaces esbuild's default `module`
 * condition, so it is named again: bundles resolve dependencies exactly as before.
 */
export const ESBUILD_CONDITIONS = [SOURCE_CONDITION, 'module'];
