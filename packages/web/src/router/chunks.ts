/**
 * Loading a route's code chunk: a chunk that fails or takes longer than CHUNK_LOAD_TIMEOUT_MS fails
 * with 'Loading chunk N failed' (spec §8), and a retry really fetches it again.
 */
import { CHUNK_LOAD_TIMEOUT_MS } from '@edupass/protocol';

export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(
    readonly chunk: number,
    options?: { cause?: unknown },
  ) {
    super(`Loading chunk ${chunk} failed`, options);
  }
}

declare global {
  interface Window {
    /** Tests shorten the chunk time-out; production uses CHUNK_LOAD_TIMEOUT_MS. */
    __edupassChunkTimeoutMs?: number;
  }
}

const timeoutMs = () => window.__edupassChunkTimeoutMs ?? CHUNK_LOAD_TIMEOUT_MS;

/** The URL of the module a failed dynamic import names ("Failed to fetch dynamically imported module: <url>"). */
const failedUrl = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined;
  return /(https?:\/\/\S+?\.js)/.exec(error.message)?.[1] ?? failedUrl(error.cause);
};

/**
 * Browsers remember a module whose fetch failed, so importing the same URL again fails at once.
 * The retry imports the URL the error names with a query, which the browser treats as a new module.
 */
const importAgain = (url: string, attempt: number): Promise<unknown> =>
  import(/* @vite-ignore */ `${url}?retry=${attempt}`);

/**
 * A loader that loads once, and after a failure imports the URL that failed again (a new module to
 * the browser) on its next call; a call while one is under way shares it.
 */
export const retryingLoader = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let current: Promise<T> | undefined;
  let failed: string | undefined;
  let attempt = 0;
  return () => {
    if (current) return current;
    attempt += 1;
    const loading = (failed ? importAgain(failed, attempt) : load()) as Promise<T>;
    current = loading;
    loading.catch((error: unknown) => {
      if (current === loading) current = undefined;
      failed = failedUrl(error) ?? failed;
    });
    return loading;
  };
};

export const loadChunk = <T>(chunk: number, load: () => Promise<T>, attempt = 0, previous?: unknown): Promise<T> => {
  const url = attempt > 0 ? failedUrl(previous) : undefined;
  const loading = (url ? importAgain(url, attempt) : load()) as Promise<T>;
  return new Promise<T>((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new ChunkLoadError(chunk)), timeoutMs());
    loading.then(
      (module) => {
        window.clearTimeout(timer);
        resolve(module);
      },
      (cause: unknown) => {
        window.clearTimeout(timer);
        reject(new ChunkLoadError(chunk, { cause }));
      },
    );
  });
};
