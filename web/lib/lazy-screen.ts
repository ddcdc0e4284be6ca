import { type ComponentType, lazy, type LazyExoticComponent } from "react";

// React.lazy suspends on its first render even when the chunk has already arrived (preloaded beside
// the session check, preload-screen.ts): an import() promise never resolves synchronously. React 19
// then shows the fallback and holds it for its Suspense throttle (up to 300 ms) before the screen
// appears; on the Orders screen that was two such waits in turn (the signed-in app, then the screen)
// before its list was even requested. A screen made here renders at once when its module is loaded:
// React.lazy accepts any thenable, and one that calls back synchronously resolves it on the spot.

type ScreenModule<P> = { default: ComponentType<P> };

export type LazyScreen<P> = {
  Component: LazyExoticComponent<ComponentType<P>>;
  /** Starts loading the chunk (once); the route then renders without suspending if it has arrived. */
  preload: () => Promise<ScreenModule<P>>;
};

export function lazyScreen<P extends object>(load: () => Promise<ScreenModule<P>>): LazyScreen<P> {
  let loaded: ScreenModule<P> | undefined;
  let loading: Promise<ScreenModule<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined; // a failed load (a deploy replaced the chunk, the network dropped) is tried again
        throw error;
      },
    ));
  const alreadyLoaded = (module: ScreenModule<P>) => ({ then: (resolve: (value: ScreenModule<P>) => void) => resolve(module) });
  const Component = lazy(() => (loaded ? (alreadyLoaded(loaded) as unknown as Promise<ScreenModule<P>>) : preload()));
  return { Component, preload };
}
