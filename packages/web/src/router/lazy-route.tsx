/**
 * A route component loaded on first use. While it loads, a quiet placeholder; when its chunk fails
 * or times out, a plain "could not load" with a retry (the chunk again) and a page reload (a new
 * release may have replaced the chunk); 'Loading chunk N failed' stays folded away for support.
 */
import { type ComponentType, useCallback, useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { ChunkLoadError, loadChunk } from './chunks.ts';

/** A screen's loader: each call after a failure fetches again what failed (`withMoreText`, i18n.ts). */
type Loader = () => Promise<{ default: ComponentType }>;

export interface LazyRoute {
  chunk: number;
  load: Loader;
  /** The component once loaded, so revisits render at once. */
  loaded?: ComponentType;
}

export const lazyRoute = (chunk: number, load: Loader): LazyRoute => ({ chunk, load });

/** Starts loading a route's chunk ahead of need (hover, idle); errors surface when it is shown. */
export const preload = (route: LazyRoute): void => {
  if (route.loaded) return;
  loadChunk(route.chunk, route.load).then(
    (module) => {
      route.loaded = module.default;
    },
    () => {},
  );
};

const ChunkFailed = ({ error, onRetry }: { error: ChunkLoadError; onRetry: () => void }) => {
  const { t } = useI18n();
  return (
    <section className="panel chunk-failed" role="alert" aria-live="assertive">
      <h1>{t('chunk.title')}</h1>
      <p>{t('chunk.explain')}</p>
      <div className="actions">
        <button type="button" className="button primary" onClick={onRetry}>
          {t('chunk.retry')}
        </button>
        <button type="button" className="button ghost" onClick={() => window.location.reload()}>
          {t('chunk.reload')}
        </button>
      </div>
      <details>
        <summary>{t('chunk.details')}</summary>
        <code>{error.message}</code>
      </details>
    </section>
  );
};

export const RouteView = ({ route }: { route: LazyRoute }) => {
  const [state, setState] = useState<{ Component?: ComponentType; error?: ChunkLoadError }>(() =>
    route.loaded ? { Component: route.loaded } : {},
  );

  const load = useCallback(() => {
    let live = true;
    loadChunk(route.chunk, route.load).then(
      (module) => {
        route.loaded = module.default;
        if (live) setState({ Component: module.default });
      },
      (error: unknown) => {
        if (live) setState({ error: error instanceof ChunkLoadError ? error : new ChunkLoadError(route.chunk) });
      },
    );
    return () => {
      live = false;
    };
  }, [route]);

  useEffect(() => {
    if (route.loaded) {
      setState({ Component: route.loaded });
      return;
    }
    setState({});
    return load();
  }, [route, load]);

  if (state.Component) return <state.Component />;
  if (state.error) {
    return (
      <ChunkFailed
        error={state.error}
        onRetry={() => {
          setState({});
          load();
        }}
      />
    );
  }
  return <div className="route-loading" aria-busy="true" />;
};
