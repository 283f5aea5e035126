"use client";
import { useEffect, useState, type ComponentType, type ReactNode } from "react";

/**
 * A component whose code loads in the browser after it is first mounted there (dialogs, charts,
 * pickers, panels behind a click): nothing of it is rendered on the server or while hydrating,
 * `loading` stands in until its code has come (one render on later mounts). The console's one way
 * to keep code out of a route's first load. A failed load is thrown to the route's error boundary.
 *
 * Why not `next/dynamic(…, { ssr: false })`: its loader brings about 2 kB (gzip) of Next's own code
 * into the first load of every route that uses it. Why not `React.lazy`: its Suspense boundary hides
 * what it shows (display: none) whenever anything inside suspends again, e.g. during a navigation,
 * which left an open form invisible; without a boundary of its own a suspension goes where it would
 * without the lazy loading.
 */
export function clientOnly<P extends object>(load: () => Promise<ComponentType<P>>, options: { loading?: () => ReactNode } = {}): ComponentType<P> {
  let loaded: { component: ComponentType<P> } | { error: unknown } | undefined;
  let pending: Promise<void> | undefined;
  const start = () =>
    (pending ??= load().then(
      (component) => void (loaded = { component }),
      (error: unknown) => void (loaded = { error }),
    ));

  function ClientOnly(props: P) {
    // Always the placeholder first, as on the server, so a hydrating page never disagrees with its HTML.
    const [state, setState] = useState<typeof loaded>(undefined);
    useEffect(() => {
      let live = true;
      void start().then(() => live && setState(loaded));
      return () => {
        live = false;
      };
    }, []);
    if (state && "error" in state) throw state.error;
    if (!state) return options.loading?.() ?? null;
    const Component = state.component;
    return <Component {...props} />;
  }
  return ClientOnly;
}
