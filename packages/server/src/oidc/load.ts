/**
 * Imports oidc-provider once. Its entry warns "Unsupported runtime" on Node 20 (its supported line is
 * Node 22; it runs here, see STACK.md): that one line is left out of the server's output, nothing else.
 */
type Module = typeof import('oidc-provider');

let loading: Promise<Module> | undefined;

export const loadOidcProvider = (): Promise<Module> => {
  loading ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('Unsupported runtime')) return;
      warn(...args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  return loading;
};
