"use client";
import { lazy, Suspense, useSyncExternalStore, type ComponentType, type ReactNode } from "react";

const noSubscription = () => () => {};

/**
 * A component whose code loads in the browser when it is first rendered there (dialogs, charts,
 * pickers, panels behind a click): nothing of it is rendered on the server, `loading` stands in
 * until its code has come. The console's one way to keep code out of a route's first load.
 *
 * Why not `next/dynamic(…, { ssr: false })`: its loader brings about 2 kB (gzip) of Next's own code
 * into the first load of every route that uses it, and React's `lazy` does the same job for code
 * that never renders on the server.
 */
export function clientOnly<P extends object>(load: () => Promise<ComponentType<P>>, options: { loading?: () => ReactNode } = {}): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  function ClientOnly(props: P) {
    // False on the server and while hydrating, so the first client render matches the server's HTML.
    const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
    const placeholder = options.loading?.() ?? null;
    if (!inBrowser) return placeholder;
    return (
      <Suspense fallback={placeholder}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return ClientOnly;
}
