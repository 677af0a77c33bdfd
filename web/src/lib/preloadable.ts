import { type ComponentType, createElement, lazy } from 'react';

/** A component loaded on demand that can be asked to start loading before it is drawn. */
export type Preloadable<P extends object = object> = ComponentType<P> & {
  /** Starts loading the component's code (once; again after a failure). */
  preload: () => Promise<ComponentType<P>>;
};

/**
 * Like React.lazy, but drawn at once when its code is already in. React.lazy suspends on its
 * first draw even when the module arrived long before (it learns that only from a promise), and
 * React 18 holds back each further reveal for up to half a second after a fallback was shown: a
 * shell and a page, each lazy, cost a phone a spinner and a second pause (docs/perf-phone.md).
 * Preloaded together (app/early-start.ts), they now draw in one pass.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await preload() })) as unknown as ComponentType<P>;
  function Preloaded(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Lazy, props);
  }
  return Object.assign(Preloaded, { preload });
}
